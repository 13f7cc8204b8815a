# expect: B201
# comprehension variables do not leak in Python 3
xs = [i for i in range(3)]
print(i)
