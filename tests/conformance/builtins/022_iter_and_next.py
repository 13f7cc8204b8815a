# iter() and next() (runtime/wat/seq.wat): every iterator kind, next's default, StopIteration
# (catchable, empty message), a StopIteration escaping a generator expression turned into
# RuntimeError (PEP 479), reversed() as an iterator, and each TypeError CPython gives.
xs = [3, 1, 4, 1, 5]
it = iter(xs)
print(next(it), next(it), list(it), next(it, "done"))
print(next(x for x in xs if x > 3), next((x for x in xs if x > 9), None))
d = {"a": 1, "b": 2}
print(next(iter(d)), next(iter(d.items())), next(iter("hé")), next(iter(range(5, 9))))
e = enumerate(["p", "q"])
print(next(e), next(e), next(e, -1))
z = zip("ab", [1, 2, 3])
print(next(z), list(z))
g = (i * i for i in range(3))
print(iter(g) is g, next(g), list(g), next(g, "end"))
it = iter([])
try:
    next(it)
except StopIteration as exc:
    print("stop", repr(str(exc)), isinstance(exc, Exception))
def first(seq):
    try:
        return next(iter(seq))
    except StopIteration:
        return "empty"
print(first([]), first("xyz"), first({}), first({7}))
src = iter([1, 2])
try:
    print(list(next(src) for _ in range(5)))
except RuntimeError as exc:
    print("RuntimeError", exc)
for bad in [lambda: next([1]), lambda: next("abc"), lambda: next({}), lambda: next(5), lambda: next(), lambda: next(it, 1, 2),
            lambda: iter(5), lambda: iter(), lambda: iter([1], 2), lambda: iter(1, 2, 3), lambda: next(iter([1]), d=3), lambda: iter([1], d=3),
            lambda: next(range(3)), lambda: next(d.keys())]:
    try:
        print(bad())
    except TypeError as exc:
        print("TypeError", exc)
m = map(str, [1, 2])
print(next(m), next(m), next(m, None))
f = filter(None, [0, 0, 7])
print(next(f), next(f, "no more"))
r = reversed([1, 2, 3])
print(next(r), list(r))
