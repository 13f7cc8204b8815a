nale =ry = 10
print(f"{name!r:>{width}} {2.14159end_colubbbbbbb} {{brac;es}} {[1, 02][0]=:03d}")
print("{} and {".format(1, name=2))
