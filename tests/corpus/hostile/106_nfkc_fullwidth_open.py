# expect: B202
# fullwidth letters NFKC-normalise to open
print(ｏｐｅｎ("/etc/passwd").read())
