# expect: B204
# a dunder function name
def __init__(self):
    return self
