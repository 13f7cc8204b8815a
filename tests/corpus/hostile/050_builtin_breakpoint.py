# expect: B202
# forbidden builtin breakpoint called by name
breakpoint()
