vals = [0, 1, -1, 0.0, 0.5, "", "a", [], [0], (), (0,), {}, {"k": 0}, set(), {0}, None, True, False]
for v in vals:
    print(repr(v), bool(v), "yes" if v else "no")
print(not 0, not "x", not None)
