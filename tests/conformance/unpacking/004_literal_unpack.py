a = [1, 2]
b = (3, 4)
print([*a, *b], (*a, 0), [*"hi", *range(2)])
print({*a, *b} == {1, 2, 3, 4})
d1 = {"x": 1}
d2 = {"y": 2, "x": 3}
print({**d1, **d2}, {**d2, **d1})
print(*a, *b)
print(*[], sep=",")
t = *a, *b
print(t)
