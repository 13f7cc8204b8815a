a, b = 1, 2
print(a, b)
a, b = b, a
print(a, b)
(x, y), z = (1, 2), 3
print(x, y, z)
p, q, r = "abc"
print(p, q, r)
[m, n] = [10, 20]
print(m, n)
k, v = {"key": 1}.popitem()
print(k, v)
