print(list(enumerate(["a", "b", "c"])))
print(list(enumerate("xy", start=10)))
print(list(zip([1, 2, 3], "ab", (True, False, None))))
print(dict(zip(["k1", "k2"], [1, 2])))
for i, (a, b) in enumerate(zip("ab", "cd")):
    print(i, a, b)
print(list(zip([1, 2], [3, 4, 5])))
