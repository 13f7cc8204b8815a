# expect: B202
# forbidden builtin staticmethod called by name
staticmethod(print)
