# expect-any: B001, B005
# assignment to True (CPython: cannot assign to True)
True = 1
print(True)
