def sq(x):
    return x * x
print([sq(x) for x in range(5)])
print([f(3) for f in [sq, abs, str]])
fns = [lambda y, i=i: y * i for i in range(4)]
print([g(2) for g in fns])
print({name: fn(-4) for name, fn in [("abs", abs), ("sq", sq)]})
