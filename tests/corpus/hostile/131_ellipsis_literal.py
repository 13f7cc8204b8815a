# expect: B309
# Ellipsis literal
def f():
    ...
