def a():
    x = 1
    def b():
        y = 2
        def c():
            nonlocal x
            x += 10
            return x + y
        return c
    return b()
f = a()
print(f(), f(), f())
def outer():
    n = 0
    def mid():
        def inner():
            nonlocal n
            n += 1
            return n
        return inner
    return mid()
g = outer()
print(g(), g())
