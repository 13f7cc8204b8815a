xs = list(range(10))
print(xs.pop(), xs.pop(0), xs.pop(3))
print(xs)
xs.remove(5)
print(xs)
del xs[0]
print(xs)
del xs[1:3]
print(xs)
del xs[::2]
print(xs)
xs.clear()
print(xs, len(xs))
