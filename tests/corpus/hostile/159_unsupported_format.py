# expect: B203
# builtin format is outside the supported set
print(format(1, ">3"))
