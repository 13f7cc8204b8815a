# expect: B202
# a parameter annotation is evaluated at def time: open() runs
def f(x: open('/etc/passwd')):
    return x
