# expect: B202
# forbidden builtin globals called by name
globals()["x"] = 1
