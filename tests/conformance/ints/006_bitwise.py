a = 0b1100
b = 0b1010
print(a & b, a | b, a ^ b, ~a)
print(1 << 10, 1024 >> 3, -16 >> 2, -1 >> 10)
print(~0, ~-1, -5 & 0xFF)
print(0x7f, 0o17, 0b101, 1_000)
print(bin(10), oct(64), hex(255), bin(-5), hex(-255))
print(1 << 62)
