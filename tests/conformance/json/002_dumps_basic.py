import json
print(json.dumps(1), json.dumps(2.5), json.dumps("s"), json.dumps(True), json.dumps(None))
print(json.dumps([1, "a", None, False]), json.dumps({"a": 1, "b": [1, 2]}))
print(json.dumps((1, 2)), json.dumps({}), json.dumps([]))
print(json.dumps({1: "int key", True: "bool key", None: "none key", 2.5: "float key"}))
print(json.dumps(0.1), json.dumps(1e16), json.dumps(1e-05), json.dumps(-0.0))
print(json.dumps(float("inf")), json.dumps(float("-inf")), json.dumps(float("nan")))
