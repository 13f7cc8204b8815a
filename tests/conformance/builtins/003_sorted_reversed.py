print(sorted([3, 1, 2]), sorted("cba"), sorted((2, 1)), sorted({"b": 1, "a": 2}))
print(sorted([3, 1, 2], reverse=True), sorted(["b", "A", "c"], key=str.lower))
data = [("x", 2), ("y", 1), ("z", 2), ("w", 1)]
print(sorted(data, key=lambda p: p[1]))
print(sorted(data, key=lambda p: p[1], reverse=True))
print(list(reversed([1, 2, 3])), list(reversed("abc")), list(reversed(range(4))))
print(list(reversed((1, 2))))
