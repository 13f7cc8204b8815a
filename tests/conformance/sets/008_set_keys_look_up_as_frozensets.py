# A set used as a key of a set lookup is looked up as its frozenset, as in CPython: `in` is
# False and discard() a no-op rather than "unhashable type: 'set'"; remove() is a KeyError
# naming the set (found by a fuzz of 2,000 set method calls and operators).
s = {1, 2, 3}
print({2, 3} in s, set() in s, {1} not in s)
s.discard({1, 2})
print(sorted(s))
try:
    s.remove({2, 3})
except KeyError as e:
    print("KeyError", e)
try:
    s.add({4})
except TypeError as e:
    print("TypeError", e)
try:
    print({1} in {1: 2})
except TypeError as e:
    print("TypeError", e)
