# slice objects: slice(), their repr, equality, use as subscripts (read, assign, delete), their
# start/stop/step (and a range's), and CPython's errors.
d = {1: "int", 1.0: "float", True: "bool"}
print(d, len({hash(x) for x in [1, 1.0, True]}))
s = slice(1, 5, 2)
print(s, repr(s), s == slice(1, 5, 2), [0, 1, 2, 3, 4, 5][s], "abcdef"[slice(3)], s.start, s.stop, s.step)
print(slice(None), slice(2, None), slice(-3, None, -1), "hello"[slice(-3, None, -1)], list(range(10))[slice(None, None, 3)])
r = range(2, 20, 3)
print(r.start, r.stop, r.step, range(5).start, range(5).step)
t = [0] * 6
t[slice(0, 6, 2)] = [1, 1, 1]
print(t)
del t[slice(1, 3)]
print(t)
for bad in [lambda: slice(), lambda: slice(1, 2, 3, 4), lambda: slice(1, stop=2), lambda: [1, 2][slice("a", 2)], lambda: [1][slice(0, 1, 0)]]:
    try:
        print(bad())
    except (TypeError, ValueError) as e:
        print(repr(e))
