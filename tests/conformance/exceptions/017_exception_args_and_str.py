try:
    raise ValueError("code", 42)
except ValueError as e:
    print(e.args, e.args[1], str(e))
try:
    int("12x")
except ValueError as e:
    msg = str(e)
    print(msg, msg.startswith("invalid literal"))
errs = [ValueError("a"), KeyError("b"), IndexError("c")]
print([str(e) for e in errs])
print([repr(e) for e in errs])
