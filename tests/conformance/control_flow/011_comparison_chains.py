def f(x):
    print("eval", x)
    return x
print(1 < f(2) < 3)
print(5 < f(2) < f(3))
print(1 == 1 == 1, 1 == 1 != 2, 1 < 2 > 0)
print(1 < 2 < 3 < 4 < 5, 1 < 2 < 2)
print("a" < "b" < "c", [1] < [2] <= [2])
x = 5
print(0 <= x < 10, x in [5] == True)
one = 1
print(one is not None is not False)
