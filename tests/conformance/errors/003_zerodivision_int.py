def ratio(a, b):
    return a // b
print(ratio(10, 3))
print(ratio(1, 0))
