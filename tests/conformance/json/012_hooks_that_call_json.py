# Hooks that call json.loads or json.dumps themselves: the inner call must leave the outer
# decoding where it was (its position in the document, its hooks, its strictness).
import json

doc = '[{"a": 1}, 2, {"b": [3, {"c": 4}]}, "tail", 5.5]'
print(json.loads(doc, object_hook=lambda d: json.loads('["x", {"y": 1}]')))
print(json.loads(doc, object_hook=lambda d: json.dumps(d, sort_keys=True)))
print(json.loads('[1.5, 2.5, 3]', parse_float=lambda s: json.loads(" [ " + s + " ] ")))
print(json.loads('{"k": [7, 8]}', parse_int=lambda s: json.loads('{"n": %s}' % s, parse_int=lambda t: int(t) * 10)))
print(json.loads(doc, object_pairs_hook=lambda ps: json.loads(json.dumps(dict(ps)), object_hook=sorted)))


def careful(d):
    try:
        json.loads('{"broken": ')
    except ValueError as e:
        return ["inner failed", str(e)]
    return d


print(json.loads(doc, object_hook=careful))


def failing(d):
    if "c" in d:
        raise KeyError("c")
    return d


try:
    json.loads(doc, object_hook=failing)
except KeyError as e:
    print("KeyError", e)
# Nothing of the failed call is left behind: no hooks, the default strictness.
print(json.loads(doc))
try:
    json.loads('["a\tb"]')
except ValueError as e:
    print(e)
print(json.loads('["a\tb"]', strict=False, object_hook=lambda d: json.loads('"\t"', strict=True)))
