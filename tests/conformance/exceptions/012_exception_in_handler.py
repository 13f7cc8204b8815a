def f():
    try:
        raise ValueError("first")
    except ValueError:
        raise TypeError("second")
try:
    f()
except TypeError as e:
    print("got", repr(e))
except ValueError as e:
    print("not this", e)
def g():
    try:
        raise KeyError("a")
    except (ValueError, KeyError) as e:
        return "tuple clause " + repr(e)
print(g())
