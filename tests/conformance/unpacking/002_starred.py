first, *rest = [1, 2, 3, 4]
print(first, rest)
*init, last = "hello"
print(init, last)
a, *mid, z = range(6)
print(a, mid, z)
a, *mid, z = [1, 2]
print(a, mid, z)
(h, *t), u = [1, 2, 3], 4
print(h, t, u)
head, *_ = (9,)
print(head, _)
