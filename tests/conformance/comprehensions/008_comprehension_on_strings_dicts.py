text = "The Quick brown Fox"
print([w for w in text.split() if w[0].isupper()])
print("".join([c for c in text if c.lower() not in "aeiou"]))
d = {"a": 1, "b": 2, "c": 3}
print([k * v for k, v in d.items()])
print({k: v for k, v in sorted(d.items(), key=lambda kv: -kv[1])})
print([(i, c) for i, c in enumerate("xyz") if i != 1])
