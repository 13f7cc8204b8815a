d = {"b": 2, "a": 1, "c": 3}
for k in d:
    print(k, d[k])
for k, v in d.items():
    print(k, "->", v)
print(sorted(d), sorted(d.items(), key=lambda kv: kv[1], reverse=True))
print(sum(d.values()), max(d, key=d.get))
keys = d.keys()
d["e"] = 5
print(list(keys), len(keys), "e" in keys)
