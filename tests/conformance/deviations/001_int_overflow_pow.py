# Baton deviation: ints are exact only over signed 64-bit.
# CPython prints 9223372036854775808; Baton must raise OverflowError
# (uncaught: exit 1, stderr last line starts with "OverflowError").
print(2 ** 62)
print(2 ** 63)
