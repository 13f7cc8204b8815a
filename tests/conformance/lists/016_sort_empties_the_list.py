# list.sort empties the list while it sorts, as CPython does: a key that looks at the list sees [],
# items appended meanwhile are dropped with ValueError, and a key or comparison that raises
# leaves the items in the list.
g5 = [0, 7, 6, (-2)]
try:
    g5.sort(key=(lambda p237: g5[0]))
except Exception as e238:
    print((e238))
print(g5)
a = [3, 1, 2]
a.sort(key=lambda x: len(a))
print(a)
b = [3, 1, 2]
try:
    b.sort(key=lambda x: b.append(x) or x)
except ValueError as e:
    print("ValueError", e)
print(b)
c = [3, "x", 1]
try:
    c.sort()
except TypeError as e:
    print("TypeError", e)
print(c)
d = [5, 4, 3, 2, 1] * 5
d.sort(reverse=True)
print(d[:6], sorted([3, 1, 2], key=lambda v: -v))
e = [2, 1]
def k(v):
    if v == 1:
        raise KeyError(v)
    return v
try:
    e.sort(key=k)
except KeyError:
    print("KeyError", e)
