# A keys or items view & anything is CPython's _PyDictView_Intersect: an exact set at least as
# large looks the view's items up in itself; otherwise the other operand (the smaller view, when
# both are) is iterated and each of its items the view contains is kept. So an items view's
# values are hashed only when kept, and the items kept are the iterated operand's (1.0, not 1).
d = {"a": [1, {"b": (2,)}], "z": 3}
print(["a"] & d.keys(), ["a"] & d.items(), d.items() & ["a"], d.items() & [("z", 3), ("a", 1)])
print({1: "a"}.keys() & [1.0], [1.0] & {1: "a"}.keys(), {1: "a"}.keys() & {1.0}, {1.0} & {1: "a"}.keys())
print({1: "a"}.keys() & {1.0, 2, 3}, {1: "a", 2: "b"}.keys() & {1.0}, {1: "a"}.keys() & frozenset({1.0}))
print({1: "a"}.keys() & {True: 0}.keys(), {1: "a", 5: 6}.keys() & {True: 0}.keys())
print(len(d.keys() & d), sorted(d.keys() & (k for k in "az")))
print(sorted(d.keys() & "abcz"), d.keys() & range(3), {0: 1}.keys() & range(3))
for bad in [5, None, 2.5]:
    try:
        print(d.keys() & bad)
    except TypeError as e:
        print("TypeError:", e)
    try:
        print(bad & d.items())
    except TypeError as e:
        print("TypeError:", e)
try:
    print(d.keys() & [[1]])
except TypeError as e:
    print("TypeError:", e)
try:
    print({"q": 1}.items() & {("q", 1), ("r", [])} )
except TypeError as e:
    print("TypeError:", e)
e = {("q", 1): 0}
print({"q": 1}.items() & e.keys(), e.keys() & {"q": 1}.items())
