# expect: B202
# a forbidden builtin referenced from a nested function, no local binding
def outer():
    def inner():
        return type
    return inner()

print(outer())
