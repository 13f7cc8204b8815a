# A ~60 KB JSON document loaded, changed and dumped 400 times.
import json
doc = {"items": [{"id": i, "name": f"item {i}", "tags": ["a", "b", str(i % 7)], "score": i * 0.5}
                 for i in range(800)]}
text = json.dumps(doc)
for round in range(400):
    data = json.loads(text)
    data["items"][round % 800]["score"] += 1
    data["round"] = round
    text = json.dumps(data)
print(len(text), json.loads(text)["round"], json.loads(text)["items"][0]["score"])
