# Plan code run from inside an iteration (a generator expression's step, a map's function, a
# sort key) while the collector runs: what the loop and its iterator hold must survive.
def heavy(n):
    junk = [str(i) * 5 for i in range(100)]
    return [n, str(n) * 2, len(junk)]

kept = []
for pair in (heavy(i) for i in range(30) if i % 3):
    kept.append(pair[1])
print(kept)
for r in map(heavy, range(4)):
    print(r)
names = ["a", "bb", "ccc"]
print([len(x) for x in (s * 2 for s in names)])
print(sum(len(heavy(i)[1]) for i in range(10)), sorted(range(5), key=lambda i: heavy(-i)[1]))
nested = [[str(i)] * 3 for i in range(20)]
out = []
for row in (r for r in nested if r):
    for cell in (c + "!" for c in row):
        out.append(cell)
print(len(out), out[:4], out[-1])
print(list(filter(lambda p: p[0] % 2, (heavy(i) for i in range(5)))))
print(dict(zip((str(i) for i in range(3)), map(lambda i: heavy(i)[1], range(3)))))
