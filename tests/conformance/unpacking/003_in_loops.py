pairs = [(1, "one"), (2, "two")]
for num, word in pairs:
    print(num, word)
for i, (a, b) in enumerate([(1, 2), (3, 4)]):
    print(i, a + b)
for first, *others in [[1, 2, 3], [4], [5, 6]]:
    print(first, others)
for k, v in sorted({"b": 2, "a": 1}.items()):
    print(k, v)
