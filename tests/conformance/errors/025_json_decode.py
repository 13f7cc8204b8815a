import json
print(json.loads("[1, 2]"))
json.loads("[1, 2")
