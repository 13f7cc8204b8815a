a = [1, 2]
b = [3]
print(a + b, a * 3, [0] * 5, 2 * b)
print([1, 2] < [1, 3], [1, 2] < [1, 2, 0], [2] > [1, 9])
print([1, 2] == [1, 2], 3 in a + b, 4 not in a)
c = a
c += [5]
print(a, c)
c = c + [6]
print(a, c)
print(a * 0, [] * 3)
