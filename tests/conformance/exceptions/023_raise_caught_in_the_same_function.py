# A raise whose handler is in the same function is branched to, not thrown: every way into a
# handler must still behave as CPython's.
def classes_and_instances():
    out = []
    for raiser in (ValueError, ValueError("v"), KeyError, 5, "text", None):
        try:
            raise raiser
        except ValueError as e:
            out.append(("ValueError", str(e)))
        except KeyError as e:
            out.append(("KeyError", repr(e)))
        except TypeError as e:
            out.append(("TypeError", str(e)))
    return out


print(classes_and_instances())


def not_matched_goes_outward():
    try:
        try:
            raise KeyError("inner")
        except ValueError:
            return "wrong handler"
    except KeyError as e:
        return "outer caught " + repr(e)


print(not_matched_goes_outward())


def through_finally():
    order = []
    try:
        try:
            raise RuntimeError("x")
        finally:
            order.append("finally")
    except RuntimeError as e:
        order.append("caught " + str(e))
    return order


print(through_finally())


def raise_in_else_and_handler():
    order = []
    try:
        try:
            order.append("body")
        except ValueError:
            order.append("not this")
        else:
            raise ValueError("from else")
    except ValueError as e:
        order.append("outer: " + str(e))
    try:
        try:
            raise ValueError("first")
        except ValueError:
            raise KeyError("second")
    except KeyError as e:
        order.append("outer: " + repr(e))
    return order


print(raise_in_else_and_handler())


def in_loops():
    seen = []
    for i in range(3):
        for j in range(3):
            try:
                if j == 1:
                    raise IndexError(i * 10 + j)
                seen.append((i, j))
            except IndexError as e:
                seen.append(("caught", e.args[0]))
                continue
    return seen


print(in_loops())


def handler_name_unbound():
    try:
        raise ValueError("gone")
    except ValueError as err:
        pass
    try:
        return err
    except NameError as e:
        return "NameError: " + str(e)


print(handler_name_unbound())


def state_after_catch():
    total = 0
    for i in range(1000):
        try:
            if i % 2:
                raise ValueError(f"odd {i}")
            total += i
        except ValueError as e:
            total += len(str(e))
    return total


print(state_after_catch())


def uncaught_from_nested():
    try:
        raise ValueError("escapes")
    except KeyError:
        pass


try:
    uncaught_from_nested()
except ValueError as e:
    print("escaped to the caller:", e)
