# json.loads whose hooks make garbage: 20,000 objects, each object_hook call making and
# dropping 20 KB, and parse_float / parse_int hooks making more: 600 MB inside one loads call,
# more than the 256 MiB cap, collected while the hooks run.
import json

doc = json.dumps([{"id": i, "name": "item%d" % i, "score": i / 8, "tags": ["a", "b"]} for i in range(20000)])


def hook(d):
    junk = str(d) * (20000 // len(str(d)) + 1)
    return (d["id"], d["name"], len(junk) > 0)


def as_float(text):
    junk = text * 2000
    return float(text) + len(junk) * 0


def as_int(text):
    junk = [text] * 1000
    return int(text) + len(junk) * 0


rows = json.loads(doc, object_hook=hook, parse_float=as_float, parse_int=as_int)
print(len(rows), rows[0], rows[-1], sum(r[0] for r in rows))
pairs = json.loads(doc, object_pairs_hook=lambda ps: (len([k for k, v in ps] * 300), ps[0]))
print(len(pairs), pairs[0], pairs[-1])
