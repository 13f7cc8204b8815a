print((1, 2) < (1, 3), (1, 2) < (1, 2, 0), (2,) > (1, 99))
print((1, "b") < (1, "c"), (1, 2) == (1, 2), (1, 2) != (2, 1))
pts = [(3, 1), (1, 2), (3, 0), (1, 1)]
print(sorted(pts), max(pts), min(pts))
print(sorted(pts, key=lambda p: p[1]))
