# list.sort makes CPython's comparisons (count_run, then binary insertion, for a list shorter
# than 64), so a comparison that raises names the same pair and leaves the items in the same
# order; clear() from a key function is a no-op on the emptied list, not a modification.
# Found by the differential tester (seeds 3052 and 3061).
g5 = [8, 9, (-2), (-3), 5]
g5 = [9, -1] + list(map(lambda p: (p % 3, -p), g5))
try:
    g5.sort()
except TypeError as e:
    print("TypeError", e)
print(g5)
g6 = [4, 9, (-3)]
def clears(v):
    g6.clear()
    return 1.5
g6.sort(key=clears)
print(g6)
cases = [
    [3, 1, 2, "x", 0],
    [5, 4, 3, None, 1, 0],
    [1, 2, 3, 4, (1,), 6],
    ["b", "a", "c", 1, "d"],
    [2, 1, 3, 5, 4, [1], 0, 7],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, "z"],
    list(range(40, 0, -1)) + [None] + list(range(20)),
    [(i * 7) % 11 for i in range(60)] + ["s"],
]
for xs in cases:
    for reverse in (False, True):
        ys = list(xs)
        try:
            ys.sort(reverse=reverse)
            print("sorted", ys)
        except TypeError as e:
            print("TypeError", e)
        print(ys)
        ys = list(xs)
        try:
            ys.sort(key=lambda v: v, reverse=reverse)
        except TypeError as e:
            print("TypeError", e)
        print(ys)
# Sorts that succeed, long and short, stable with keys.
import json
rows = [((i * 37) % 101, (i * 13) % 7) for i in range(500)]
print(sorted(rows)[:5], sorted(rows, key=lambda r: r[1])[:5], sorted(rows, reverse=True)[:3])
print(json.dumps(sorted(["b", "a", "c", "a"])), sorted([3, 1, 2], reverse=True))
