# expect-any: B001, B005
# a bare starred expression as an assignment value (CPython: can't use starred expression here)
x = *[1]
