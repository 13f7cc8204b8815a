# Baton deviation: int() of a string outside signed 64-bit.
# CPython prints the big int; Baton must raise OverflowError (caught: prints "OverflowError").
try:
    print(int("99999999999999999999"))
except OverflowError:
    print("OverflowError")
