# expect: B203
# builtin iter is outside the supported set
print(iter([1]))
