# expect: B205
# __base__ walk from a list literal to find os._wrap_close
for c in [].__class__.__base__.__subclasses__():
    if "wrap_close" in str(c):
        print(c)
