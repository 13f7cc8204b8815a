xs = [5, 1, 4, 2]
xs[0], xs[-1] = xs[-1], xs[0]
print(xs)
d = {"a": 1}
d["a"], d["b"] = 10, 20
print(d)
(a, b), (c, *d2) = "xy", [1, 2, 3]
print(a, b, c, d2)
fib = [0, 1]
p, q = 0, 1
for _ in range(10):
    p, q = q, p + q
    fib.append(q)
print(fib)
