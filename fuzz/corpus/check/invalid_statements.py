return 1
break
continue
def f():
    nonlocal z
    yield from []
x = lambda: (yield)
