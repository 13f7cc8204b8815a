s = "0123456789"
for a, b, c in [(-8, -2, 1), (-2, -8, -1), (-100, 100, 3), (100, -100, -3), (None, None, -4), (None, 4, None)]:
    print(a, b, c, repr(s[a:b:c]))
