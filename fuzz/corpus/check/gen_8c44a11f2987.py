name= 10
print(f"{name!r:>{width}} {3.14159:.2f} {{braces}} {[1, 2][00]=:03d}")
printZ1, name=2))
