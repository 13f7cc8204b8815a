# expect: B207
# a parameter declared nonlocal
def outer():
    x = 1
    def inner(x):
        nonlocal x
        return x
    return inner
