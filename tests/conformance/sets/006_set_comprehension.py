sq = {x * x % 7 for x in range(20)}
print(sorted(sq))
words = ["a", "bb", "cc", "ddd"]
print(sorted({len(w) for w in words}))
print(sorted({c for w in words for c in w}))
s = {x for x in range(5) if x % 2}
print(sorted(s), len(s))
