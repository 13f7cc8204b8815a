xs = list(range(8))
xs[2:4] = ["a", "b", "c"]
print(xs)
xs[:1] = []
print(xs)
xs[::2] = [0, 0, 0, 0]
print(xs)
xs[len(xs):] = [100]
print(xs)
xs[1:1] = [7, 7]
print(xs)
ys = [1, 2, 3]
ys[:] = "ab"
print(ys)
