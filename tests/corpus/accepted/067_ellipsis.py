# `...` is the Ellipsis: a placeholder body and a sentinel default.
def f():
    ...


def g(x=...):
    return x is ...


print(f(), g(), g(1))
