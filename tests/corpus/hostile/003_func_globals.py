# expect: B205
# a function's __globals__ reaches the module namespace and __builtins__
def f():
    return 1

g = f.__globals__
print(g)
