vals = [1, -2.5, "a'b", 'a"b', None, True, [1, "x"], (1,), {"k": [1]}, "", "\n", 1e-05, float("nan")]
for v in vals:
    print(repr(v), str(v))
print(repr(repr("x")), str(str(5)))
