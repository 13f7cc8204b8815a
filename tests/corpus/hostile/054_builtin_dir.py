# expect: B202
# forbidden builtin dir called by name
dir(print)
