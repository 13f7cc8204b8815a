# sum() asks for the iterable's iterator before it looks at `start`, as CPython does, so a
# non-iterable with a str start is "not iterable" (found by a fuzz of 3,000 builtin calls).
for args in [(0, "abc"), (None, ""), (2.5, "10"), (True, "x"), ([1, 2], "s"), ([], ""), ([1, 2], 10), ((x for x in [1, 2]), 0)]:
    try:
        print(repr(sum(*args)))
    except TypeError as e:
        print("TypeError", e)
