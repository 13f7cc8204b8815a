print(str(123), repr(-45), str(0))
print(len(str(2 ** 40)))
print(str(10 ** 18))
print([1, -2, 3])
n = 1234
print(n, str(n) + "!", repr(n) == str(n))
print(int(str(n)[::-1]))
