# expect-any: B001, B005
# two starred targets in one assignment (CPython: multiple starred expressions)
a, *b, *c = [1, 2, 3]
