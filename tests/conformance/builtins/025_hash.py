# hash(): CPython's values for ints, floats, bools and tuples of them; equal values hash alike;
# unhashable containers raise CPython's TypeError.
print(hash(1), hash(-1), hash(-2), hash(2**61 - 1), hash(2**61), hash(-(2**62)), hash(True), hash(False))
print(hash(1.0), hash(1.5), hash(-0.5), hash(1e300), hash(float("inf")), hash(-float("inf")), hash(0.1), hash(-0.0))
print(hash((1, 2)), hash(()), hash((1, (2, 3), 4.5, True)), hash((-1,)), hash(range(0)) == hash(range(5, 5)))
print(hash("abc") == hash("abc"), hash("") == hash(""), hash((1, "a")) == hash((1, "a")))
for bad in [[1], {}, set(), {1: 2}.keys(), (1, [2])]:
    try:
        hash(bad)
    except TypeError as e:
        print(repr(e))
try:
    hash()
except TypeError as e:
    print(repr(e))
try:
    hash(1, 2)
except TypeError as e:
    print(repr(e))
# Equal values hash alike, so they are one key.
