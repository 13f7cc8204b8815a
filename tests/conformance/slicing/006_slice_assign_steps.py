xs = list(range(10))
xs[::3] = ["a", "b", "c", "d"]
print(xs)
xs[::-2] = [0, 0, 0, 0, 0]
print(xs)
try:
    xs[::2] = [1, 2]
except ValueError as e:
    print("ValueError:", e)
ys = list(range(6))
del ys[::-2]
print(ys)
ys[1:] = []
print(ys)
