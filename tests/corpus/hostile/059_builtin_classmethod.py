# expect: B202
# forbidden builtin classmethod called by name
classmethod(print)
