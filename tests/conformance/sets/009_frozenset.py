# frozenset: a set that nothing changes and that hashes (CPython's hash, so hash() prints as
# CPython's for ints and tuples); operators and methods return the type of the left operand or
# the receiver; a set used as a key of a set lookup finds the frozenset of its elements; the
# methods that change a set are AttributeErrors, and |= on a frozenset rebinds a new one.
fs = frozenset([1, 2, 3, 1])
print(fs, len(fs), isinstance(fs, frozenset))
print(frozenset(), frozenset(""), repr(frozenset("a")))
print(fs == {1, 2, 3}, {1, 2, 3} == fs, fs != frozenset({1}))
print(hash(frozenset()), hash(frozenset({1, 2, 3})), hash(frozenset({-1})), hash(frozenset({(1, 2), 2**40})))
print(hash(fs) == hash(frozenset([1, 2, 3])))
print(fs | {4}, {0} | fs, fs & {1, 9}, fs - {1}, fs ^ {3, 5})
print(isinstance(fs | {4}, frozenset), isinstance({0} | fs, frozenset), isinstance(fs - {1}, frozenset), isinstance(fs & {1}, frozenset), isinstance(fs ^ {1}, frozenset))
print(fs.union([7]), fs.intersection({1}), fs.difference([1]), sorted(fs.symmetric_difference([1, 8])), isinstance(fs.symmetric_difference([1]), frozenset))
print(fs.issubset({1, 2, 3, 4}), fs.issuperset([1]), fs.isdisjoint([9]))
print(fs.copy() is fs, frozenset(fs) is fs)
d = {fs: "x", frozenset(): "empty"}
print(d[frozenset([1, 2, 3])], d[frozenset()])
s = {frozenset([1]), frozenset([2])}
print(frozenset([1]) in s, {1} in s, {3} in s)
s.discard({1})
print(s)
try:
    s.remove({9})
except KeyError as e:
    print("KeyError", e)
g = fs
g |= {10}
print(sorted(g), fs, g is fs, isinstance(g, frozenset))
g -= {1}
print(sorted(g))
try:
    fs.add(1)
except AttributeError as e:
    print(e)
try:
    fs.update([1])
except AttributeError as e:
    print(e)
try:
    frozenset([1], [2])
except TypeError as e:
    print(e)
try:
    frozenset(iterable=[1])
except TypeError as e:
    print(e)
try:
    frozenset(1)
except TypeError as e:
    print(e)
try:
    hash({1})
except TypeError as e:
    print(e)
try:
    fs.issubset(1, 2)
except TypeError as e:
    print(e)
try:
    fs | 1
except TypeError as e:
    print(e)
print(isinstance(fs, frozenset), isinstance(fs, set), isinstance({1}, frozenset))
print(sorted(fs), sum(fs), min(fs), max(fs), list(frozenset("aab")) == ["a", "b"] or True)
print(frozenset({1}) < fs, fs <= fs, fs > {1})
print(f"{fs}", str(frozenset([frozenset([1])])))
x = frozenset([frozenset([1, 2]), frozenset()])
print(len(x), frozenset([1, 2]) in x)

print(set(fs), isinstance(set(fs), set))
print({1: 2}.keys() & fs, isinstance(fs & {1: 2}.keys(), set))
print(bool(frozenset()), bool(fs))
