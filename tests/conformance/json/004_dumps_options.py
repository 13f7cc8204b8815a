import json
data = {"b": [1, 2, {"c": None}], "a": "x", "empty": [], "obj": {}}
print(json.dumps(data, sort_keys=True))
print(json.dumps(data, indent=2))
print(json.dumps(data, indent=4, sort_keys=True))
print(json.dumps(data, separators=(",", ":")))
print(json.dumps([1, [2, 3]], indent=0))
