# expect: B204
# a dunder for-loop target
for __x__ in []:
    pass
