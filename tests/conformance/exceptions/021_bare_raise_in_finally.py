# A bare raise in a finally body that runs because of an exception re-raises that exception;
# on the normal path it re-raises the one being handled (found by baton-difftest, seed 1616).
try:
    try:
        g1 = int('0x1f')
    except Exception as e207:
        try:
            print(str.splitlines(None))
        finally:
            raise
except Exception as e214:
    print((e214))
def f():
    try:
        try:
            raise KeyError("inner")
        finally:
            print("finally sees the exception in flight")
    except KeyError as e:
        return repr(e)
print(f())
try:
    try:
        raise ValueError("handled")
    except ValueError:
        try:
            pass
        finally:
            raise
except ValueError as e:
    print("normal path re-raises the handled one:", e)
try:
    try:
        1 / 0
    finally:
        try:
            raise
        except ZeroDivisionError as e:
            print("caught inside finally:", e)
except ZeroDivisionError as e:
    print("then propagates:", e)
