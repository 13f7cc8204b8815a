# exception handling across the supported hierarchy
from baton import bash, log


def lookup(table, key):
    try:
        return table[key]
    except LookupError:
        return None


def divide(a, b):
    try:
        return a / b
    except ZeroDivisionError as exc:
        raise ArithmeticError(f"cannot divide {a} by zero") from exc


def risky(n):
    if n > 2:
        raise TimeoutError("too slow")
    if n < 0:
        raise NotImplementedError("negative")
    return n


results = []
for n in [-1, 1, 3]:
    try:
        results.append(risky(n))
    except (TimeoutError, NotImplementedError) as exc:
        log("skipped", n, str(exc))
    except Exception:
        raise
print(results, lookup({}, "x"), lookup([1], 5))
try:
    divide(1, 0)
except ArithmeticError as exc:
    print("error:", exc.args[0])
try:
    int("abc")
except (ValueError, TypeError, OverflowError):
    print("not a number")
