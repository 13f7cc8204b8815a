# expect: B202
# a function calls the builtin before the module-level binding exists
def read():
    return open("/etc/passwd").read()

print(read())
open = None
