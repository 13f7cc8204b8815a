# expect: B202
# forbidden builtin help called by name
help(print)
