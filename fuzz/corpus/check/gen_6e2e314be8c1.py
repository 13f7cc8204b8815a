def f(a, b=2,  c, d=8, **kw):
300)
