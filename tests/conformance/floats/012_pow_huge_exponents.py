# x ** y for |y| of 2^63 and beyond: inf (OverflowError) or 0 by the signs alone. 2.5 ** 1e308
# trapped in the runtime (found by a fuzz of 3,000 builtin calls). Negative bases with a
# fractional exponent are Baton's no-complex deviation, so only the integral ones are here.
for x in [2.5, 0.5, 1.0000000000000002, 0.9999999999999999, 1e-300, 1e300, 3.0]:
    for y in [1e308, -1e308, 2.0 ** 64, -(2.0 ** 64), 2.0 ** 63, 1e19, -1e19, 1e18, -1e15, 1e200]:
        try:
            print(x, y, repr(x ** y))
        except OverflowError as e:
            print(x, y, "OverflowError", e)
        if y == y // 1:
            try:
                print(repr((-x) ** y))
            except OverflowError as e:
                print("OverflowError", e)
