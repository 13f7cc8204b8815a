# json.dumps whose `default` makes garbage: 20,000 values that are not JSON (sets), each
# `default` call making and dropping 30 KB: 600 MB inside one dumps call, more than the 256 MiB
# cap, collected while `default` runs. The values `default` returns are encoded too (a dict, a
# list, a str), and sort_keys keeps its sorted items while the calls run.
import json


def default(o):
    i = min(o)
    junk = ("p%d," % i) * 5000
    if i % 3 == 0:
        return {"i": i, "n": len(junk) // len(junk), "tag": "x" * (i % 7)}
    if i % 3 == 1:
        return [i, str(i)]
    return "point %d" % i


doc = [{"id": i, "point": {i, i + 1}} for i in range(20000)]
text = json.dumps(doc, default=default)
print(len(text), text[:80], text[-60:])
text = json.dumps({"b": [{i} for i in range(10000)], "a": 1}, default=default, sort_keys=True)
print(len(text), text[:60], text[-40:])
