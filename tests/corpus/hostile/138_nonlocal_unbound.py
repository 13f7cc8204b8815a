# expect: B207
# nonlocal of a name no enclosing function binds
y = 1

def f():
    nonlocal y
    y = 2
