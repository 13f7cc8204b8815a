# expect: B202
# forbidden builtin exec called by name
exec("x = 1")
