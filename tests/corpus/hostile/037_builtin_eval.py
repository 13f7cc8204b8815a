# expect: B202
# forbidden builtin eval called by name
eval("1 + 1")
