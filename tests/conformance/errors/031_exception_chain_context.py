def cleanup():
    raise ValueError("cleanup failed")
try:
    raise KeyError("primary")
except KeyError:
    cleanup()
