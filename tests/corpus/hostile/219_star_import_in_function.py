# expect: B104
# star import inside a function (CPython also rejects it)
def f():
    from json import *
