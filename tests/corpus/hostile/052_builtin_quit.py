# expect: B202
# forbidden builtin quit called by name
quit()
