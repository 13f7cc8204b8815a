print(any([]), all([]), any([0, 0, 1]), all([1, 1, 0]))
print(any(["", None, 0]), all(["a", 1, [0]]))
print(any(x > 3 for x in range(5)), all(x < 5 for x in range(5)))
print(any({}), all({0: "x"}), any("0"))
