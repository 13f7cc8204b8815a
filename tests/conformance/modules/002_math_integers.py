# math's integer functions and rounding: floor, ceil and trunc return ints; gcd, lcm, comb, perm,
# factorial, isqrt and prod work on ints exactly.
import math
from math import floor, ceil, trunc, gcd, lcm, comb, perm, factorial, isqrt, prod

for x in [2.5, -2.5, 3.0, -0.0, 0.1, -0.9, 7, True, 1e15 + 0.5, -123456789.75]:
    print(x, floor(x), ceil(x), trunc(x), isinstance(floor(x), int), isinstance(ceil(x), int))
print(gcd(), gcd(12), gcd(-12, 18), gcd(0, 0), gcd(0, 5), gcd(48, 180, 36), gcd(True, 4))
print(lcm(), lcm(4), lcm(4, 6), lcm(-4, 6), lcm(0, 5), lcm(2, 3, 4, 5))
print(comb(10, 3), comb(10, 0), comb(10, 10), comb(3, 5), comb(52, 5), comb(60, 30))
print(perm(5), perm(5, 2), perm(5, 0), perm(3, 4), perm(20, 10))
print(factorial(0), factorial(1), factorial(10), factorial(20))
print(isqrt(0), isqrt(1), isqrt(15), isqrt(16), isqrt(10**18), isqrt(2**62 + 12345), isqrt(9223372036854775807))
print(prod([]), prod([2, 3, 4]), prod([1.5, 2]), prod(range(1, 11)), prod([2, 3], start=10), prod(["ab", 3]))
print(math.floor(-1e-300), math.ceil(1e-300), math.trunc(-1e-300))

for bad in [
    lambda: math.factorial(-1),
    lambda: math.factorial(2.0),
    lambda: math.isqrt(-1),
    lambda: math.isqrt(2.5),
    lambda: math.comb(5, -1),
    lambda: math.comb(-5, 1),
    lambda: math.perm(-1),
    lambda: math.gcd(2.5),
    lambda: math.lcm(1, "a"),
    lambda: math.floor("x"),
    lambda: math.ceil(None),
    lambda: math.trunc("a"),
    lambda: math.floor(math.inf),
    lambda: math.ceil(-math.inf),
    lambda: math.floor(math.nan),
]:
    try:
        print(bad())
    except (ValueError, TypeError, OverflowError) as e:
        print(repr(e))
