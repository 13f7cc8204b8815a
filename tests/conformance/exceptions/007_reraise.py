def inner():
    raise ValueError("original")
def middle():
    try:
        inner()
    except ValueError:
        print("middle saw it")
        raise
try:
    middle()
except ValueError as e:
    print("outer caught:", e)
def wrap():
    try:
        {}["k"]
    except KeyError as e:
        print("logging", repr(e))
        raise
try:
    wrap()
except LookupError as e:
    print("lookup:", repr(e))
