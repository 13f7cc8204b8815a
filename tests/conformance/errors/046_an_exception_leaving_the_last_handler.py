# An `except E as name` handler that nothing encloses, left by an exception: the run ends with
# it (Baton skips unbinding the name, which nothing can read any more).
def f():
    try:
        raise ValueError("in f")
    except ValueError as inner:
        print("handling", inner)
        raise KeyError("from f")
try:
    f()
except KeyError as k:
    print("caught", repr(k))
# The last handler of the module: nothing encloses it, and the run ends with its exception.
try:
    raise ValueError("last")
except ValueError as last:
    print("handling", last)
    raise KeyError("uncaught") from None
