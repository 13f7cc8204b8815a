# expect: B201
# an undefined name inside a function
def f():
    return helper_that_does_not_exist(1)
