for i in range(1, 4):
    row = []
    for j in range(1, 4):
        if j > i:
            break
        row.append(i * j)
    print(row)
found = None
for a in range(1, 20):
    for b in range(a, 20):
        c2 = a * a + b * b
        c = int(c2 ** 0.5)
        if c * c == c2 and c < 20:
            found = (a, b, c)
            break
    if found:
        break
print(found)
