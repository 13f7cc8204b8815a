calls = []
def f(tag, val):
    calls.append(tag)
    return val
r = f("a", 0) and f("b", 1)
print(r, calls)
calls.clear()
r = f("a", 1) or f("b", 1)
print(r, calls)
calls.clear()
r = f("a", 1) and f("b", 0) or f("c", "z")
print(r, calls)
calls.clear()
print(f("x", 1) < f("y", 2) < f("z", 0) < f("w", 9), calls)
