# expect: B202
# forbidden builtin super called by name
super()
