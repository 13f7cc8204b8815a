# expect: B305
# with statement
def f(cm):
    with cm as c:
        return c
