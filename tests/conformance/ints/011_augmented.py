x = 10
x += 5
print(x)
x -= 3
print(x)
x *= 4
print(x)
x //= 5
print(x)
x %= 7
print(x)
x **= 3
print(x)
x <<= 2
x >>= 1
x |= 1
x &= 0xFF
x ^= 0b11
print(x)
