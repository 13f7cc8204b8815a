# expect: B101
# import inside a nested function used as a default
def g():
    def h():
        from shutil import rmtree
        rmtree("/")
    return h
