xs = [1, "two", 3.0, None, True, [4], (5,), {"six": 6}, ""]
print(xs)
print(repr(xs))
print(str(xs) == repr(xs))
print(["it's", 'q"uote'])
ys = [0.1, -0.0, 1e16, 1e-05]
print(ys)
