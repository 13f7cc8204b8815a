# expect: B204
# a dunder parameter name
def f(__class__):
    return __class__
