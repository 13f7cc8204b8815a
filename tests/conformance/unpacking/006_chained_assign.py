a = b = c = 0
print(a, b, c)
x = y = []
x.append(1)
print(x, y, x is y)
i, j = j, i = 1, 2
print(i, j)
xs = [0, 0, 0]
k = 1
k, xs[k] = 2, 9
print(k, xs)
