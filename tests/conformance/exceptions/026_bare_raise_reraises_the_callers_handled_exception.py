# A bare `raise` in a function that runs no handler of its own re-raises the exception the
# innermost running handler up the call chain handles (sys.exc_info()); none after that handler
# ended, returned, broke out of a loop or raised (found by the mutation fuzzer, seed 73).
def fail():
    raise

def check(label, f):
    try:
        f()
    except Exception as e:
        print(label, repr(e))

def direct():
    try:
        1 / 0
    except ZeroDivisionError:
        fail()

check("from except", direct)
check("outside", fail)

def after_handler():
    try:
        {}["k"]
    except KeyError:
        pass
    fail()

check("after a handler ended", after_handler)

def returned_from_handler():
    try:
        [][1]
    except IndexError:
        return 1

def after_return():
    returned_from_handler()
    fail()

check("after a return from a handler", after_return)

def loop_break():
    for i in range(3):
        try:
            int("x")
        except ValueError:
            break
    fail()

check("after break", loop_break)

def loop_continue():
    for i in range(2):
        try:
            int("y")
        except ValueError:
            continue
    fail()

check("after continue", loop_continue)

def nested():
    try:
        1 / 0
    except ZeroDivisionError:
        try:
            {}["inner"]
        except KeyError:
            pass
        fail()

check("outer handler again", nested)

def raised_in_handler():
    try:
        try:
            1 / 0
        except ZeroDivisionError:
            raise KeyError("from handler")
    except KeyError:
        pass
    fail()

check("after a handler raised", raised_in_handler)

def in_finally():
    try:
        raise ValueError("in flight")
    finally:
        fail()

check("finally", in_finally)

def finally_return():
    try:
        raise ValueError("swallowed")
    finally:
        return 5

def after_finally_return():
    finally_return()
    fail()

check("after finally return", after_finally_return)

def deeper():
    fail()

def two_levels():
    try:
        raise TypeError("two")
    except TypeError:
        deeper()

check("two levels", two_levels)

try:
    raise LookupError("module")
except LookupError:
    check("module handler", fail)
check("module after", fail)
