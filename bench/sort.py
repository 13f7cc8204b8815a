# Sorting 200,000 tuples with a key function.
def make(n):
    rows = []
    x = 42
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        rows.append((x % 1000, f"item{x % 9973}", i))
    return rows


rows = make(200_000)
by_key = sorted(rows, key=lambda r: (r[0], r[1]))
checksum = 0
for position, row in enumerate(by_key):
    checksum = (checksum * 31 + row[2] * (position % 97)) % 1_000_000_007
print(len(by_key), by_key[0], by_key[-1], checksum)
