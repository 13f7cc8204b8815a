# expect: B204
# _x__ matches the dunder pattern
_x__ = 1
print(_x__)
