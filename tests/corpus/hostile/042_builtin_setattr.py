# expect: B202
# forbidden builtin setattr called by name
setattr(print, "x", 1)
