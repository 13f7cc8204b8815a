# Two items views ^ is CPython's dictitems_xor: a pair both dicts have (equal values) is dropped
# without being hashed, so unhashable values they share are no error; every other view
# operator makes a set of the left operand's items first (hashing them) and combines it with
# the right operand's.
d = {"a": [1], "z": 3}
e = {"a": [1], "y": 4}
tests = [
    lambda: d.items() ^ e.items(),
    lambda: d.items() - e.items(),
    lambda: d.items() | e.items(),
    lambda: d.keys() ^ e.keys(),
    lambda: ["a"] - d.keys(),
    lambda: d.keys() - ["a", [1]],
    lambda: d.items() - [("a", [1])],
    lambda: [("z", 3)] ^ d.items(),
    lambda: {"q": 1}.items() ^ {"q": 1}.items(),
    lambda: {"q": [1]}.items() ^ {"q": [1]}.items(),
    lambda: {"q": [1]}.items() ^ {"q": [2]}.items(),
    lambda: {1: 2}.keys() | [1.0],
    lambda: [1.0] | {1: 2}.keys(),
    lambda: {1: 2}.keys() - {1.0},
    lambda: {1.0} - {1: 2}.keys(),
]
for t in tests:
    try:
        r = t()
        print(sorted(r, key=repr) if len(r) > 1 else r)
    except TypeError as ex:
        print("TypeError:", ex)
