for i in range(3):
    print(i, end=",")
print()
for i in range(5, 0, -2):
    print(i, end=",")
print()
for i in range(-3, 3, 2):
    print(i, end=",")
print()
for i in range(0):
    print("never")
print(list(range(10, 10)), list(range(0, -5, -1)))
