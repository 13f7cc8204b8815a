# `@` and `@=`: no type in plans defines matrix multiplication; CPython's TypeError, never a
# compiler error (the checker accepted `@` and the runtime had no such operator).
for a, b in [(2, 3), ([1], 2), ("s", 1.5)]:
    try:
        print(a @ b)
    except TypeError as e:
        print("TypeError:", e)
    try:
        a @= b
    except TypeError as e:
        print("TypeError:", e)
