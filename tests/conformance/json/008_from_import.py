from json import loads, dumps
doc = loads('{"steps": [{"name": "a", "ok": true}, {"name": "b", "ok": false}], "n": 2}')
names = [s["name"] for s in doc["steps"] if s["ok"]]
print(names, doc["n"] + 1)
doc["steps"].append({"name": "c", "ok": None})
print(dumps(doc))
print(dumps(doc["steps"][-1], sort_keys=True, indent=1))
print(loads(dumps("round \u2603 trip")))
