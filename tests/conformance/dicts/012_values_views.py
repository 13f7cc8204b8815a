d = {"a": 3, "b": 1}
v = d.values()
i = d.items()
d["c"] = 2
print(list(v), list(i))
print(sorted(v), len(i))
print(("a", 3) in i, 3 in v)
print(d.keys() == {"a", "b", "c"})
print(sorted(d.keys() & {"a", "z"}), sorted(d.keys() - {"a"}))
