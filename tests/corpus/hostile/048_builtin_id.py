# expect: B202
# forbidden builtin id called by name
id(1)
