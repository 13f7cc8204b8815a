print({x: x * x for x in range(5)})
print({k: v for k, v in zip("abc", [1, 2, 3]) if v != 2})
words = ["apple", "bob", "apple", "cat"]
print({w: len(w) for w in words})
print({v: k for k, v in {"a": 1, "b": 2}.items()})
print({i % 3: i for i in range(10)})
