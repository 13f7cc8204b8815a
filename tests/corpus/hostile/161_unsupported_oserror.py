# expect: B203
# builtin OSError is outside the supported set
print(OSError("x"))
