s = {1, 2, 3}
s |= {4}
print(sorted(s))
s &= {2, 3, 4, 5}
print(sorted(s))
s -= {3}
print(sorted(s))
s ^= {4, 9}
print(sorted(s))
s.update([7, 8], {0})
print(sorted(s))
t = s.copy()
t.clear()
print(sorted(s), t)
x = {5}
print(x.pop(), x)
