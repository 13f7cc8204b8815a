# expect: B202
# a comprehension variable named open does not shadow the builtin outside it
names = [open for open in []]
print(open("/etc/passwd"))
