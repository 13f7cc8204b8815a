# repr and str.isprintable follow Unicode 14's categories (CPython 3.11) for every code point:
# unassigned ones (U+1E240, found by a format-spec fuzz through f"{123456:<8c}"), format
# characters, private use and separators are escaped; the variation selectors of plane 14
# print as they are.
print(repr(chr(123456)), repr(f"{123456:<8c}"))
samples = [0xA0, 0xA1, 0xAD, 0x378, 0x560, 0x600, 0x61C, 0x890, 0x1680, 0x180E, 0x2028, 0x2065,
           0x3000, 0xD7FF, 0xE000, 0xFDD0, 0xFEFF, 0xFFFC, 0xFFFE, 0x1000C, 0x1D173, 0x1E240,
           0x1F600, 0x1FAFF, 0x2A6DF, 0x2A6E0, 0x3134A, 0x3134B, 0xE0001, 0xE0100, 0xE01EF,
           0xE01F0, 0xF0000, 0x10FFFF]
for c in samples:
    print(hex(c), chr(c).isprintable(), repr(chr(c)))
# A count and a checksum of the printable code points of some blocks, code point by code point.
for lo, hi in [(0xA0, 0x800), (0x800, 0x3000), (0xA000, 0xD800), (0xF900, 0x10000),
               (0x10000, 0x10800), (0x11000, 0x11400), (0x16800, 0x17000), (0x1D000, 0x1D400),
               (0x1E000, 0x1F000), (0x1F000, 0x1FC00)]:
    n = 0
    h = 0
    for c in range(lo, hi):
        if chr(c).isprintable():
            n += 1
            h = (h * 31 + c) % 1000000007
    print(hex(lo), hex(hi), n, h)
