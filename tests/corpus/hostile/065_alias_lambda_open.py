# expect: B202
# open returned from a lambda
print((lambda: open)()("/etc/passwd"))
