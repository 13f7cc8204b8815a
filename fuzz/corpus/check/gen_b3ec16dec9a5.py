def f(a, b=3, *a):
    r2), -(a, brgs, 20)
