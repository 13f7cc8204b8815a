# expect: B202
# forbidden builtin getattr called by name
getattr(1, "__cla" + "ss__")
