# expect: B401
# format field chaining index and attributes
def f():
    return 0

print("{0.__globals__[__builtins__]}".format(f))
