def f():
    pass

g = f.__globals__
fr = (lambda: 0).__code__.co_consts
type(1).mro()
obj = [].__class__
print(f._private, vars(), globals()['x'], open('/etc/passwd'))
