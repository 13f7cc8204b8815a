def stats(xs):
    return min(xs), max(xs), sum(xs) / len(xs)
lo, hi, avg = stats([4, 8, 15, 16, 23, 42])
print(lo, hi, avg)
r = stats([1, 2])
print(r, r[2])
def swap(a, b):
    return b, a
print(swap(1, 2))
