a = {1, 2, 3, 4}
b = {3, 4, 5}
print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b))
print(sorted(a.union(b, [9])), sorted(a.intersection(b)), sorted(a.difference(b)))
print(sorted(a.symmetric_difference(b)))
print({1, 2} <= a, {1, 2} < a, a <= a, a < a, a >= {4})
print(a.issubset(range(10)), a.issuperset([1]), a.isdisjoint({7, 8}))
print(a == {4, 3, 2, 1}, a != b)
