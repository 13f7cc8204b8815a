# expect: B205
# assignment to a dunder attribute (store context)
def f(x=1):
    return x

f.__defaults__ = (2,)
