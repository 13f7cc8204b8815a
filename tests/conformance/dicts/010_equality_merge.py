a = {"x": 1, "y": 2}
b = {"y": 2, "x": 1}
print(a == b, list(a) == list(b))
print(a | {"z": 3}, {"x": 0} | a)
c = dict(a)
c |= {"x": 5, "w": 6}
print(c)
print({**a, "x": 9}, {**a, **{"q": 1}})
print({1: "a"} != {1: "b"})
