# expect: B207
# the enclosing function binds x only inside a comprehension, so nonlocal x has no binding
def outer():
    [x for x in range(3)]
    def inner():
        nonlocal x
        x = 1
    return inner
