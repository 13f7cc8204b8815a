# expect: B202
# forbidden builtin open called by name
open("/etc/passwd").read()
