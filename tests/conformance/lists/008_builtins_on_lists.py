xs = [4, -2, 7, 0]
print(len(xs), sum(xs), max(xs), min(xs))
print(sorted(xs), list(reversed(xs)), xs)
print(any(xs), all(xs), all([]), any([]))
print(list(map(abs, xs)), list(filter(None, xs)))
print(list(enumerate(xs, 1)))
print(list(zip(xs, "abcd")))
print(max(xs, key=abs), min([], default="empty"))
