a = [1, [2, 3]]
b = a
c = a.copy()
d = a[:]
e = list(a)
a.append(4)
a[1].append(99)
print(a)
print(b)
print(c)
print(d)
print(e)
grid = [[0] * 3 for _ in range(2)]
grid[0][0] = 1
print(grid)
bad = [[0] * 3] * 2
bad[0][0] = 1
print(bad)
