name = "x"
width = 10
print(f"{name!r:>{width}} {3.14159:.2f} {{braces}} {[1, 2][0]:03d}")
print("{} and {name}".format(1, name=2))
