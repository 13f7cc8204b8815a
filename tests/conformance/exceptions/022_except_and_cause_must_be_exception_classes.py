# An except clause's class is checked when an exception reaches it: a value that is not an
# exception class (an int, a builtin function, a str, a nested tuple) is a TypeError, never a
# crash; `raise ... from` takes an exception, an exception class or None.
def attempt(label, spec):
    try:
        try:
            1 / 0
        except spec:
            print(label, "caught")
    except TypeError as e:
        print(label, "TypeError:", e)


attempt("int", 123)
attempt("builtin", len)
attempt("str", "abc")
attempt("print", print)
attempt("nested tuple", (ZeroDivisionError, (ValueError, 5)))
attempt("tuple with int", (ValueError, 5))
attempt("class", ZeroDivisionError)
attempt("tuple", (ValueError, ArithmeticError))
attempt("not an exception class", int)

# A clause that is never reached is never checked.
try:
    pass
except 123:
    print("unreachable")
print("no exception, no check")

for cause in [123, "text", None, KeyError, KeyError("k")]:
    try:
        raise ValueError("x") from cause
    except TypeError as e:
        print("from", repr(cause), "-> TypeError:", e)
    except ValueError as e:
        print("from", repr(cause), "-> ValueError:", e)
try:
    raise 5 from None
except TypeError as e:
    print("TypeError:", e)

print(repr(str(encoding="utf-8")), repr(str(errors="strict")), repr(str()))
for value in [5, "s"]:
    try:
        str(value, encoding="utf-8")
    except TypeError as e:
        print("TypeError:", e)
