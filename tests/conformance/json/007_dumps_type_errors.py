import json
for v in [{1, 2}, lambda: 0, {(1, 2): "tuple key"}]:
    try:
        json.dumps(v)
    except TypeError as e:
        print("TypeError:", e)
print(json.dumps({"k": (1, 2)}))
