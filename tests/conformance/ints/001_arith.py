a = 17
b = 5
print(a + b, a - b, a * b)
print(a / b)
print(a // b, a % b)
print(a ** 2, 2 ** 10, 3 ** 0)
print(-a, +a, -(-a))
print(7 - 10, 0 - 0, 100 * -3)
