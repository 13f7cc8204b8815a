x = 3.75
print(int(x), int(-x), str(x), repr(x))
print(x.is_integer(), (4.0).is_integer())
print(float(int(9.99)))
print(abs(-2.5), abs(-0.0))
print(max(1.5, 2, 0.5), min(-1.0, -1))
print(sum([0.1] * 10))
print(sum([0.5, 0.25, 0.125]))
