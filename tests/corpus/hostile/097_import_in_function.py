# expect: B101
# import hidden inside a function body
def helper():
    import os
    return os.getcwd()

print(helper())
