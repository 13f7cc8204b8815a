# json.dumps's `default`: what it returns is encoded in turn (containers, strs, numbers, None,
# values that need `default` again), with sort_keys, indent and check_circular=False; its
# errors propagate; it may call json.dumps itself; a cycle through it is detected.
import json


def default(o):
    if isinstance(o, set):
        return sorted(o)
    if isinstance(o, range):
        return {"range": [o.start, o.stop], "as_set": set(o)}
    if isinstance(o, frozenset):
        return json.dumps(sorted(o))
    raise TypeError("cannot encode " + repr(o))


print(json.dumps({"a": {3, 1, 2}, "r": range(2, 5), "f": frozenset([2, 1])}, default=default))
print(json.dumps([range(3), {9}, None, 1.5], default=default, sort_keys=True, indent=2))
print(json.dumps({"z": {1}, "a": range(1)}, default=default, sort_keys=True, check_circular=False))
print(json.dumps([1, [2, [3, {4}]]], default=lambda o: list(o) + ["x" * 3]))
print(json.dumps({1: {2}, "k": None}, default=lambda o: len(o), separators=(",", ":")))
try:
    json.dumps([1, print], default=default)
except TypeError as e:
    print("TypeError", e)
try:
    json.dumps([1, {2}], default=lambda o: 1 / 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
box = []
box.append({1})
try:
    json.dumps(box, default=lambda o: box)
except ValueError as e:
    print("ValueError", e)
print(json.dumps(box, default=lambda o: [len(json.dumps(list(o)))]))
for n in range(3):
    print(json.dumps({"n": n, "s": set(range(n))}, default=lambda o: sorted(o, reverse=True)))
