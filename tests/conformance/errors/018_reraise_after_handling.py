def risky():
    return {}["k"]
try:
    risky()
except KeyError:
    print("handling, then re-raising")
    raise
