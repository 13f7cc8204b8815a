matrix = [[1, 2, 3], [4, 5, 6]]
print([row[i] for row in matrix for i in range(len(row)) if i != 1])
print([[row[i] for row in matrix] for i in range(3)])
n = 10
print([n + i for i in range(3)])
def f(k):
    return [[k * a + b for b in range(2)] for a in range(2)]
print(f(10))
x = 99
print([x for x in range(3)], x)
