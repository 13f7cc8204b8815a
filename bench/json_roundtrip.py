# json.dumps and json.loads of a document of about 1 MB generated in the program.
import json


def make(n):
    records = []
    for i in range(n):
        records.append({
            "id": i,
            "name": f"user-{i}",
            "score": i * 0.25,
            "active": i % 3 == 0,
            "tags": ["t" + str(i % 7), "g" + str(i % 11)],
            "parent": None if i % 5 else i // 5,
            "note": "line \"quoted\"\nnext\t\u00e9",
        })
    return {"version": 3, "records": records}


document = make(6_000)
text = json.dumps(document)
back = json.loads(text)
again = json.dumps(back, indent=2, sort_keys=True)
print(len(text), len(again), back == document, back["records"][-1]["name"])
