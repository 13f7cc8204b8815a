# expect: B202
# bind eval, delete the binding, then the builtin shows through (CPython semantics)
eval = None
del eval
eval("1 + 1")
