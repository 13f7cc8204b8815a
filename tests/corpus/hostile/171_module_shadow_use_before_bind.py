# expect: B202
# the builtin is used before the module binds the name
print(type(1))
type = "bug"
