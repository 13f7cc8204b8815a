# expect: B203
# builtin frozenset is outside the supported set
print(frozenset())
