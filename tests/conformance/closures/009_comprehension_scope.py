x = "outer"
ys = [x for x in range(3)]
print(ys, x)
def f():
    n = 3
    return [n * i for i in range(n)]
print(f())
def g():
    base = 10
    return {k: (lambda v: v + base)(k) for k in range(3)}
print(g())
