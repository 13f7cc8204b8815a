data = [1, 5, 2, 8, 3]
print([y for x in data if (y := x * 2) > 4])
total = 0
sums = [total := total + x for x in data]
print(sums, total)
