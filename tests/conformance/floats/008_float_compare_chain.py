a = 0.1 + 0.2
print(a == 0.3, a > 0.3, 0.3 < a < 0.31)
print(1.0 < 2 <= 2.0 < 3)
print(float("inf") > 10 ** 18)
print(-1e-300 < 0 < 1e-300)
print(sorted([3.5, -1.0, 2, 0.0, -0.5]))
print(2.5 in [1, 2.5, 3], 2 in [1.0, 2.0])
