# `raise e` of an exception raised before: CPython's traceback grows by the frames down to the
# new raise, ahead of the part from where it was handled to where it was first raised. A bare
# `raise` keeps the traceback as it is.
def fail(n):
    if n == 0:
        raise ValueError("deep")
    fail(n - 1)


saved = None
try:
    fail(2)
except ValueError as e:
    saved = e


def again():
    raise saved


def bare():
    try:
        again()
    except ValueError:
        print("bare")
        raise


def named():
    try:
        bare()
    except ValueError as e:
        print("named", e)
        raise e


named()
