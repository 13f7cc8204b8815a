# augmented assignments, multiple targets, swaps and del
from baton import bash

a = b = 0
a, b = 1, 2
a, b = b, a
total = 10
total += 5
total -= 3
total *= 2
total //= 5
total %= 4
total **= 2
flags = 0b0101
flags |= 0b1000
flags &= 0b1100
flags ^= 0b0001
flags <<= 1
flags >>= 2
items = [1, 2, 3, 4]
del items[0]
del items[-1:]
scratch = bash("echo tmp").stdout
del scratch
text = "x"
text *= 3
print(a, b, total, flags, items, text)
