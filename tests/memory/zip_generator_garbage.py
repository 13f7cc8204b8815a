# A zip of generator expressions whose steps make garbage: 20,000 rows, each step making and
# dropping 15 KB, 600 MB in all, more than the 256 MiB cap, collected while the rows are drawn
# (by a `for` loop, by list() and by zip(strict=True)).
def row(i):
    junk = ("r%d;" % i) * 3000
    return len(junk) // len(junk) + i


total = 0
for a, b in zip((row(i) for i in range(20000)), (str(row(i)) for i in range(20000))):
    total += a + len(b)
print(total)
rows = list(zip((row(i) for i in range(10000)), (row(-i) for i in range(10000))))
print(len(rows), rows[0], rows[-1])
count = 0
for a, b in zip((row(i) for i in range(5000)), (row(i) * 2 for i in range(5000)), strict=True):
    count += b - a
print(count)
try:
    for a, b in zip((row(i) for i in range(3)), (row(i) for i in range(4)), strict=True):
        pass
except ValueError as e:
    print("ValueError", e)
