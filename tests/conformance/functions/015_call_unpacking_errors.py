# A failed unpacking in a call names the callee as CPython does (__main__.f(), str.split()),
# and ** unpacking takes dicts of str keys, each name once.
def f(*a):
    return a
def g():
    def inner(*a):
        return a
    return inner
for fn in [f, g(), lambda *a: a, len, print]:
    try:
        fn(*None)
    except TypeError as e:
        print(e)
    try:
        fn(**[1])
    except TypeError as e:
        print(e)
def f(*a, **k):
    return a, k
print(f(*[1, 2], *(3,), x=1, **{"y": 2}, z=3))
print(f(*"ab", **{}))
print(f(*range(3), *{4: 0}, *{5}))
for call in [lambda: f(**{1: 2}), lambda: f(a=1, **{"a": 2}), lambda: f(**{"a": 2}, a=1),
             lambda: "abc".split(*None), lambda: str.split(*None), lambda: int(*None),
             lambda: f(**{"a": 1}, **{"a": 2}), lambda: [].append(*5), lambda: {}.get(**[1])]:
    try:
        call()
    except TypeError as e:
        print(e)
d = {"sep": "-"}
print(*["a", "b"], **d)
print("x-y".split(*["-"]))
# A callee without a qualified name (not a function, class or method) is shown as its str().
for callee in [None, 5, "ab", [1]]:
    for call in [lambda: callee(*None), lambda: callee(**[1])]:
        try:
            call()
        except TypeError as e:
            print(e)
