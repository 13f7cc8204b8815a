# A builtin called back by another builtin can run plan code: `sum` as a sort key draws a
# generator expression's items. The caller keeps its own values (the keys, the items) while
# that runs; the collector must not take them (a collection at every safe point tried this).
def gens(*sizes):
    return [(x % 7 for x in range(n * 40)) for n in sizes]

g = gens(3, 1, 2, 5, 4)
ordered = sorted(g, key=sum)
print([g.index(x) for x in ordered])

g = gens(2, 6, 1)
print(g.index(max(g, key=sum)), end=" ")
g = gens(2, 6, 1)
print(g.index(min(g, key=sum)))

print(list(map(sum, gens(1, 2, 3))))
print(list(map(len, map(list, gens(3, 1, 2)))))
print(sorted(map(sum, gens(4, 2, 3)), reverse=True))
words = [(w for w in ["ab", "c", "def"] * n) for n in (2, 1, 3)]
print(sorted(map("-".join, words), key=len))
print(len(list(filter(any, [(x for x in range(n)) for n in (0, 1, 2, 0, 3)]))))
