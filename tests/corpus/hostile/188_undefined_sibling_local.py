# expect: B201
# a name local to a sibling function is not visible
def a():
    secret = 1
    return secret


def b():
    return secret
