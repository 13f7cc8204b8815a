# expect: B203
# builtin next is outside the supported set
print(next(x for x in [1]))
