# expect: B204
# a dunder name declared nonlocal
def f():
    __x__ = 1
    def g():
        nonlocal __x__
        __x__ = 2
    return g
