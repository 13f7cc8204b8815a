# `x op= y` changes a list, dict or set in place: every other name bound to it sees the change
# (found by baton-difftest: `v = d; v |= {...}` left d unchanged).
a = [1]
b = a
b += [2]
b *= 2
print(a, a is b)
b *= 0
print(a, a is b)
d = {"a": 1}
e = d
e |= {"b": 5}
e |= [("c", 6)]
print(d, d is e)
s = {1, 2}
t = s
t |= {3}
print(sorted(s), s is t)
t &= {2, 3, 4}
print(sorted(s), s is t)
t -= {2}
print(sorted(s), s is t)
t ^= {3, 9}
print(sorted(s), s is t)
# Immutable values get a new object; the other name keeps the old one.
x = (1,)
y = x
y += (2,)
y *= 2
print(x, y, x is y)
n = 6
m = n
m |= 1
m &= 5
m ^= 8
m -= 1
print(n, m)
# Through a subscript and inside a function that receives the container.
grid = [[0], [1]]
grid[0] *= 3
print(grid)
def grow(items, more):
    items |= more
    return items
seen = {"x"}
print(grow(seen, {"y"}) is seen, sorted(seen))
counts = {}
alias = counts
for word in "a b a".split():
    alias |= {word: alias.get(word, 0) + 1}
print(counts)
# The target is read before the right side runs, as in CPython.
def outer():
    x = 1
    def bump():
        nonlocal x
        x = 100
        return 5
    x += bump()
    return x
print(outer())
cell = {"k": 1}
def change():
    cell["k"] = 50
    return 2
cell["k"] *= change()
print(cell)
