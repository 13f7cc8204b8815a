sq = lambda x: x * x
add = lambda a, b=10: a + b
print(sq(7), add(1), add(1, 2))
print((lambda: "no args")())
print((lambda *a, **k: (a, k))(1, 2, z=3))
fs = [lambda x, n=n: x + n for n in range(3)]
print([f(10) for f in fs])
print(sorted([(1, "b"), (2, "a")], key=lambda p: p[1]))
print(list(map(lambda x: x * 2, [1, 2, 3])))
print(list(filter(lambda s: len(s) > 1, ["a", "bb", "ccc"])))
