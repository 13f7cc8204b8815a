# expect: B202
# forbidden builtin property called by name
property(print)
