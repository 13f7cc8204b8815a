names = ("a", "b", "c")
for i, n in enumerate(names):
    print(i, n)
for pair in zip(names, (1, 2, 3)):
    print(pair)
print(list(zip((1, 2, 3), "ab")))
print(list(zip()))
print(list(zip(*[(1, "x"), (2, "y")])))
