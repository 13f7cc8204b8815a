# Baton deviation: abs of the most negative int, int() of a huge float, factorial 21.
# CPython prints big ints; Baton must raise OverflowError for each (prints "overflow" 3 times).
def fact(n):
    return 1 if n == 0 else n * fact(n - 1)
small = -9223372036854775807 - 1
for f in [lambda: abs(small), lambda: int(1e19), lambda: fact(21)]:
    try:
        print(f())
    except OverflowError:
        print("overflow")
