# A raise in a try body whose handlers do not match escapes with its own traceback.
def f():
    try:
        raise ValueError("escapes")
    except KeyError:
        pass


f()
