print(abs(-5), abs(5), abs(0))
print(round(5), round(-5))
print(round(1234, -2), round(1250, -2), round(1350, -2), round(-1250, -2))
print(max(3, -7, 2), min(3, -7, 2))
print(sum([1, 2, 3, 4]), sum([], 10), sum(range(101)))
total = 0
for i in range(1, 11):
    total += i * i
print(total)
