# Silent differences that were: arguments given twice or too many (keywords count), ** of a
# value that is not a mapping in a dict display, equal ranges that hashed apart (a dict
# lookup missed), and isdisjoint on keys() and items() views.
cases = [
    lambda: str(42, object=42),
    lambda: int('5', 10, base=16),
    lambda: int('5', base=16, x=1),
    lambda: enumerate([1], iterable=[2]),
    lambda: enumerate([1], 5, start=2),
    lambda: {**[('a', 1)]},
    lambda: {**42},
    lambda: {'a': 1, **None},
    lambda: dict(**{'a': 1}),
]
for case in cases:
    try:
        print(case())
    except TypeError as e:
        print("TypeError:", e)
print({**{'a': 1}, 'b': 2, **{'a': 3}})
print(str(object=42), int('ff', base=16), list(enumerate('ab', start=3)))
print(range(0, 1, 1) == range(0, 2, 2), range(0) == range(5, 5))
print(len({range(0, 1, 1): "a", range(0, 2, 2): "b"}), {range(0, 1): 1}.get(range(0, 3, 5)))
print(len({range(0): 1, range(5, 5): 2, range(3, 3, 7): 3}), range(7, 8) in {range(7, 9, 4)})
d = {"a": 1, "b": 2}
print(d.keys().isdisjoint(["c"]), d.keys().isdisjoint({"a"}), d.items().isdisjoint([("a", 1)]))
print(d.items().isdisjoint([("a", 2)]))
try:
    d.values().isdisjoint([1])
except AttributeError as e:
    print("AttributeError:", e)
