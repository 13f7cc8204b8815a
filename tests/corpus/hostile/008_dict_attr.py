# expect: B205
# __dict__ of a module/function to enumerate internals
def f():
    return 0

print(f.__dict__)
