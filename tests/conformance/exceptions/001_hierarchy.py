def trial(exc):
    try:
        raise exc
    except LookupError as e:
        return "LookupError: " + repr(e)
    except ArithmeticError as e:
        return "ArithmeticError: " + repr(e)
    except Exception as e:
        return "Exception: " + repr(e)
print(trial(KeyError("k")))
print(trial(IndexError("i")))
print(trial(ZeroDivisionError("z")))
print(trial(OverflowError("o")))
print(trial(ValueError("v")))
print(trial(RecursionError("r")))
