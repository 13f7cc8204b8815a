# expect: B206
# mro() without underscores reaches object
root = int.mro()[-1]
print(root)
