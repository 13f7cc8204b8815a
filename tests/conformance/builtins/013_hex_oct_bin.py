for n in [0, 1, 7, 255, 4096, -1, -255]:
    print(n, bin(n), oct(n), hex(n))
print(int(hex(255), 16), int(bin(10), 2), int(oct(8), 8))
print(int("0x10", 0), int("0o10", 0), int("10", 0))
