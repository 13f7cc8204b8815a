pairs = [(1, 2), (2, 1), (1, 2), (3, 3)]
print(sorted(set(pairs)))
s = {"x", "y"}
print(sorted(s), "x" in s)
print(sum({1, 2, 3}), max({4, 9, 2}), min({4, 9, 2}))
print(sorted({-1, -5, 3}, reverse=True))
print(any({0}), all({1, 2}), all(set()))
print(sorted(set(range(3)) | set("ab"), key=str))
