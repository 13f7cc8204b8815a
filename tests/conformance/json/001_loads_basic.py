import json
print(json.loads("1"), json.loads("-2.5"), json.loads('"s"'), json.loads("true"), json.loads("null"))
print(json.loads("[1, 2, [3]]"), json.loads('{"a": 1, "b": [true, false, null]}'))
print(json.loads("1e3"), json.loads("1E-2"), json.loads("0"), json.loads("-0"), json.loads("-0.0"))
print(json.loads('  {"x" : {"y" : {}}}  '))
print(json.loads('"esc: \\n \\t \\" \\\\ \\/ \\u00e9 \\u20ac"'))
print(json.loads('{"dup": 1, "dup": 2}'))
