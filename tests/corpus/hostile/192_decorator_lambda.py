# expect: B306
# a relaxed-grammar lambda decorator (3.9+)
@lambda f: f
def g():
    return 1
