def f(a, b=2, *args, c, d=4, **kw):
    return a, b, args, c, d, kw

x = list(range(20))[::-3]
y = f(1, c=3, **{"e": 5})
z = (lambda *a, **k: (a, k))(*x[1:4])
del x[0]
print(x, y, z, divmod(7, 2), -(2 ** 63), 0x7fff_ffff, 1e-300)
