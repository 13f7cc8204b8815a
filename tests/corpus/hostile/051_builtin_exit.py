# expect: B202
# forbidden builtin exit called by name
exit(0)
