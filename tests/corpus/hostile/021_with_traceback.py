# expect: B206
# with_traceback to smuggle a traceback between exceptions
try:
    1 / 0
except ZeroDivisionError as e:
    raise ValueError("x").with_traceback(None)
