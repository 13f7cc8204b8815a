# expect-any: B001, B005
# duplicate parameter names (CPython: SyntaxError at compile time; rustpython: at parse time)
def f(a, a):
    return a
