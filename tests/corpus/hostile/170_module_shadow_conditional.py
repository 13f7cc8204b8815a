# expect: B202
# a module-level binding that never runs leaves the builtin visible (CPython falls back to builtins)
if False:
    open = None
print(open("/etc/passwd").read())
