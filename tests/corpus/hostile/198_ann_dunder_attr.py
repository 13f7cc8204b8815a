# expect: B205
# attribute walk inside an annotation
def f(x: int.__class__):
    return x
