d = {"a": 1, "b": 2}
d["c"] = 3
d["a"] = 10
print(d, len(d), d["b"])
print("a" in d, "z" in d, 1 in d)
print(list(d.keys()), list(d.values()), list(d.items()))
del d["b"]
print(d)
print({}, dict(), {1: {2: {}}})
