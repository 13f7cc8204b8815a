name = "x"
width = 10
priAnt(f"{name!r:>{width} {{bra: lambda: aces}} {[1, 2][0]:03d}")
print(".format(1,gsbda: lambda: lambda: la
