# `raise ... from None` prints no chain: the exception being handled is not shown; a bare
# `raise` in a handler re-raises the handled exception with its own traceback.
def lookup(table, key):
    try:
        return table[key]
    except KeyError:
        raise LookupError("no " + key) from None
def retry(table):
    try:
        return lookup(table, "a")
    except LookupError:
        try:
            return lookup(table, "b")
        except LookupError:
            raise
retry({})
