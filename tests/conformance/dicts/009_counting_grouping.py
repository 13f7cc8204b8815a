words = "apple bob cat anna bob cat cat".split()
counts = {}
for w in words:
    counts[w] = counts.get(w, 0) + 1
print(counts)
groups = {}
for w in words:
    groups.setdefault(w[0], []).append(w)
print(groups)
inv = {v: k for k, v in counts.items()}
print(inv)
top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
print(top[0], top[-1])
