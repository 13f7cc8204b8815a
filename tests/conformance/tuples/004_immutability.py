t = (1, [2, 3])
try:
    t[0] = 9
except TypeError as e:
    print("TypeError:", e)
t[1].append(4)
print(t)
u = t
t = t + (5,)
print(u, t)
print(tuple([1, 2]), tuple("hi"), tuple(range(3)))
