d = {}
for k in ["z", "a", "m", "b"]:
    d[k] = len(d)
print(d)
d["z"] = 100
print(d)
del d["z"]
d["z"] = 0
print(d)
print(list(d))
d.pop("a")
d["a"] = 1
print(d)
