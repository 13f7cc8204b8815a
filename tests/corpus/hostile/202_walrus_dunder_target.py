# expect: B204
# a dunder walrus target
if (__x__ := 1):
    print(__x__)
