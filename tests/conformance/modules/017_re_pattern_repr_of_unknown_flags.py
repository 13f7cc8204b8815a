# A pattern's repr shows flags it has no name for as CPython's pattern_repr does: the C
# int's bits in unsigned hex (fuzz finding, seed 227: -9999999 printed as -0x989800).
import re
for flags in [-9999999 & ~128, -1 & ~128 & ~1, -256, 1 << 20, (1 << 31) - 1, -(1 << 31), 0x10000]:
    try:
        print(re.compile("a", flags))
    except (ValueError, OverflowError) as e:
        print(repr(e))
    try:
        print(re.compile("a", flags).flags)
    except (ValueError, OverflowError) as e:
        print(repr(e))
# Flags beyond a C int are CPython's OverflowError, after the pattern's own errors and the flag
# checks (fuzz finding, seed 233: 1 << 31 was accepted).
for flags in [1 << 31, -(1 << 31) - 1, 1 << 40, (1 << 31) - 1 - 32, -(1 << 31), -(1 << 40) & ~4]:
    for pattern in ["a", "(", "a{2}"]:
        try:
            print(re.compile(pattern, flags).flags)
        except (ValueError, OverflowError, re.error) as e:
            print(repr(e))
