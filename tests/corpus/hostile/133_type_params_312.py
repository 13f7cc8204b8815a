# expect: B310
# Python 3.12 generic function syntax (not valid 3.11; B310 or B001)
def f[T](x):
    return x
