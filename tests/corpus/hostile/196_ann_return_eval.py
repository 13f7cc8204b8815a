# expect: B202
# a return annotation is evaluated at def time
def f() -> eval('1'):
    return 1
