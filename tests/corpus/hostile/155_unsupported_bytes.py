# expect: B203
# builtin bytes is outside the supported set
print(bytes(3))
