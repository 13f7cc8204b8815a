import json
bad = ["", "{", "[1,]", "{'a': 1}", "nul", "1 2", '{"a" 1}', '"unterminated', "[1, 2", "01"]
for s in bad:
    try:
        json.loads(s)
        print("parsed?", repr(s))
    except json.JSONDecodeError as e:
        print(repr(s), "->", e)
try:
    json.loads("{")
except ValueError as e:
    print("caught as ValueError:", isinstance(e, json.JSONDecodeError))
