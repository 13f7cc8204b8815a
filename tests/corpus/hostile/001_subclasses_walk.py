# expect: B205
# classic object-graph walk: tuple -> object -> every loaded class
classes = ().__class__.__bases__[0].__subclasses__()
for c in classes:
    print(c)
