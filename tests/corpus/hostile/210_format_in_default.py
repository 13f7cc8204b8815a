# expect: B401
# a hostile .format call in a parameter default
def f(x='{0.__class__}'.format(1)):
    return x
