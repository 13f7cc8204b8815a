# expect: B203
# builtin NotImplemented is outside the supported set
print(NotImplemented)
