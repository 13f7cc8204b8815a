name = "Ada"
n = 3
print(f"hello {name}")
print(f"{n} + {n} = {n + n}")
print(f"{name!r} {name!s} {name.upper()}")
print(f"{[1, 2]} {(3,)} {None} {True}")
print(f"{{braces}} {n}")
print(f"{'nested'} {n * 'ab'}")
