# Baton deviation: the most negative int minus one, and negating it.
# CPython prints -9223372036854775809 and 9223372036854775808; Baton must raise
# OverflowError for both (each caught below, printing "overflow" twice).
small = -9223372036854775807 - 1
for f in [lambda: small - 1, lambda: -small]:
    try:
        print(f())
    except OverflowError:
        print("overflow")
