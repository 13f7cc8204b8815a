# expect: B207
# name assigned before its nonlocal declaration
def outer():
    x = 1
    def inner():
        x = 2
        nonlocal x
        return x
    return inner
