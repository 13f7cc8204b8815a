# expect: B202
# forbidden builtin delattr called by name
delattr(print, "x")
