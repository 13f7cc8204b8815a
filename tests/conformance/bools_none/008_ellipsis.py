# `...` is the Ellipsis: a placeholder body, a default, a value that is itself wherever it is
# written.
def todo():
    ...


def pick(x=...):
    if x is ...:
        return "no argument"
    return x


print(todo(), pick(), pick(3))
x = ...
print(x, repr(x), str(x), x is ..., x == ..., bool(x), [...], {"k": ...})
try:
    x.foo
except AttributeError as e:
    print(e)
