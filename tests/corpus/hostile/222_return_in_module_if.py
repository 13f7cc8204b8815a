# expect: B005
# return at module level nested in an if
if True:
    return 1
