# Baton deviation: an integer literal outside signed 64-bit.
# CPython prints 18446744073709551616; Baton must raise OverflowError
# (at run time, when the literal is evaluated: "first" is printed, then exit 1).
print("first")
print(18446744073709551616)
