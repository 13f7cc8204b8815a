# Equal constant tuples and floats of a program are one object each, as CPython folds its
# constants (found by the mutation fuzzer: a duplicated list of literals compared with `is`).
a = (3,)
b = (3,)
x = 2.5
y = 2.5
p = (-1, 0, 1)
q = (-1, 0, 1)
r = ((1, "x"), None)
s = ((1, "x"), None)
print(a is b, x is y, p is q, r is s)
print(a == b, (1, 2.5, "s", True, None, -7, (), ("n", (0.5,))))
for d in (-1, 0, 1):
    print(d, end=" ")
print()
t = (1, 2)
e1 = ()
e2 = ()
print(t + (3,), {(1, 2): "found"}[t], (1, 2) < (1, 3), len(()), e1 is e2)
grid = [(0, 0)] * 3
grid[1] = (5, 5)
print(grid, grid[0] is grid[2])
