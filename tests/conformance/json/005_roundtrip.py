import json
values = [0, -1, 9223372036854775807, 3.14, 1e100, "", "uni\u00e9", [], {}, [1, [2, [3, {}]]],
          {"k": {"nested": [True, None, 1.5]}}, 0.1, 2.0]
for v in values:
    s = json.dumps(v)
    back = json.loads(s)
    print(s, back == v)
print(json.loads(json.dumps((1, 2))))
