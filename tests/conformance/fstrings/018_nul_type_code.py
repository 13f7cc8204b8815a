# A format spec whose type is a NUL character is an unknown format code, not "no type".
for value in (1, 2.5, "s"):
    for spec in ("\x00", ">5\x00"):
        try:
            print(repr(f"{value:{spec}}"))
        except ValueError as e:
            print("ValueError:", repr(str(e)))
for value in (5, "t"):
    for spec in ("\x01", "\x7f", "\xe9", "\u2603"):
        try:
            print(repr(f"{value:{spec}}"))
        except ValueError as e:
            print("ValueError:", repr(str(e)))
for spec in (",x", "_c", ",\x01", "_\u2603", ",s"):
    for v in (5, "s"):
        try:
            print(f"{v:{spec}}")
        except ValueError as e:
            print(repr(str(e)))
