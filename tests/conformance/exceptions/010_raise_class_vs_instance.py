for exc in [ValueError, ValueError("with msg"), KeyError, TypeError("t", 2)]:
    try:
        raise exc
    except Exception as e:
        print(repr(e), "|", str(e), "|", e.args)
e = ValueError("a", "b")
print(e.args, str(e))
print(str(KeyError("k")), str(KeyError()), str(KeyError("a", "b")))
print(repr(Exception()), str(Exception()))
