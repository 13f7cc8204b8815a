# expect: B202
# forbidden builtin input called by name
input("password: ")
