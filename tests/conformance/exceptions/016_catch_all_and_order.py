def f(k):
    try:
        if k == "zero":
            return 1 / 0
        if k == "key":
            return {}[k]
        if k == "idx":
            return [][1]
        if k == "type":
            return len(5)
        return "fine"
    except ZeroDivisionError:
        return "zde"
    except LookupError as e:
        return "lookup " + repr(e)
    except BaseException as e:
        return "base " + repr(e)
for k in ["zero", "key", "idx", "type", "none"]:
    print(k, f(k))
