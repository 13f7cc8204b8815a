out = []
for i in range(10):
    if i % 3 == 0:
        continue
    if i > 7:
        break
    out.append(i)
print(out)
i = 0
total = 0
while True:
    i += 1
    if i % 2 == 0:
        continue
    if i > 9:
        break
    total += i
print(total, i)
