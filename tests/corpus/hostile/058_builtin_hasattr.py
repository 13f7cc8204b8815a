# expect: B202
# forbidden builtin hasattr called by name
hasattr(print, "x")
