import json
print(json.dumps("quote \" backslash \\ slash /"))
print(json.dumps("nl\ntab\tcr\rbs\bff\f"))
print(json.dumps("\u00e9\u20ac\U0001F600"))
print(json.dumps("\u00e9", ensure_ascii=False))
print(json.dumps("\x00\x1f\x7f"))
print(json.dumps(["caf\u00e9"], ensure_ascii=False))
