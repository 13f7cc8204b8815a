def parse(s):
    try:
        return int(s)
    except ValueError as e:
        raise RuntimeError("cannot parse " + repr(s)) from e
try:
    parse("x1")
except RuntimeError as e:
    print("RuntimeError:", e)
def quiet():
    try:
        1 / 0
    except ZeroDivisionError:
        raise KeyError("replaced") from None
try:
    quiet()
except KeyError as e:
    print("KeyError:", e)
print(parse("12"))
