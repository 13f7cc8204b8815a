# expect: B202
# forbidden builtin vars called by name
vars()
