# expect: B203
# builtin StopIteration is outside the supported set
print(StopIteration())
