"""math for plans. The functions that are one C library call each (exp, log, sin, sqrt, pow,
...) are the runtime's (runtime/wat/math.wat, computed by the host's C library as CPython's
are); this file writes the others in the plan language, to CPython 3.11's results and errors.
Integers are Baton's 64-bit ints: factorial(21) and the like raise OverflowError."""

from math import fabs, sqrt, isfinite, isinf, isnan
from _baton import type_name

pi = 3.141592653589793
e = 2.718281828459045
tau = 6.283185307179586
inf = float("inf")
nan = float("nan")


def _real(x):
    # Raises CPython's TypeError for what is not an int, bool or float.
    fabs(x)


def _index(x):
    if not isinstance(x, int):
        raise TypeError("'" + type_name(x) + "' object cannot be interpreted as an integer")
    return int(x)


def floor(x, /):
    """The largest int <= x."""
    if isinstance(x, int):
        return int(x)
    _real(x)
    n = int(x)
    if n > x:
        n -= 1
    return n


def ceil(x, /):
    """The smallest int >= x."""
    if isinstance(x, int):
        return int(x)
    _real(x)
    n = int(x)
    if n < x:
        n += 1
    return n


def trunc(x, /):
    """x without its fraction, as an int."""
    if isinstance(x, int):
        return int(x)
    if not isinstance(x, float):
        raise TypeError("type " + type_name(x) + " doesn't define __trunc__ method")
    return int(x)


def degrees(x, /):
    """Radians to degrees."""
    _real(x)
    return x * (180.0 / pi)


def radians(x, /):
    """Degrees to radians."""
    _real(x)
    return x * (pi / 180.0)


def isqrt(n, /):
    """The largest int whose square is <= n."""
    n = _index(n)
    if n < 0:
        raise ValueError("isqrt() argument must be nonnegative")
    if n == 0:
        return 0
    # Newton's iteration from above, in integers: it never overshoots below the root.
    # (Compared by division: a square near the largest int would overflow 64 bits.)
    x = int(sqrt(n)) + 1
    while x > n // x:
        x = (x + n // x) // 2
    while x + 1 <= n // (x + 1):
        x += 1
    return x


def factorial(n, /):
    """n! for an int n >= 0."""
    n = _index(n)
    if n < 0:
        raise ValueError("factorial() not defined for negative values")
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result


def _gcd2(a, b):
    a = abs(a)
    b = abs(b)
    while b:
        a, b = b, a % b
    return a


def gcd(*integers):
    """The greatest common divisor of the arguments (0 for none)."""
    result = 0
    for n in integers:
        result = _gcd2(result, _index(n))
    return result


def lcm(*integers):
    """The least common multiple of the arguments (1 for none)."""
    result = 1
    for n in integers:
        n = _index(n)
        if result == 0 or n == 0:
            result = 0
        else:
            result = abs(result // _gcd2(result, n) * n)
    return result


def perm(n, k=None, /):
    """The number of ways to choose k of n items in order (n! / (n - k)!)."""
    if k is None:
        return factorial(n)
    n = _index(n)
    k = _index(k)
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")
    if k > n:
        return 0
    result = 1
    for i in range(n - k + 1, n + 1):
        result *= i
    return result


def comb(n, k, /):
    """The number of ways to choose k of n items without order."""
    n = _index(n)
    k = _index(k)
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")
    if k > n:
        return 0
    k = min(k, n - k)
    result = 1
    for i in range(1, k + 1):
        # Exact at every step: result is C(n - k + i - 1, i - 1).
        result = result * (n - k + i) // i
    return result


def prod(iterable, /, *, start=1):
    """The product of `start` and the items."""
    result = start
    for x in iterable:
        result = result * x
    return result


def fsum(iterable, /):
    """The correctly rounded sum of the floats, as CPython's fsum computes it: exact partial
    sums (Shewchuk), then a rounding that is correct in the half-way cases."""
    partials = []
    special = 0.0
    inf_sum = 0.0
    for item in iterable:
        _real(item)
        x = float(item)
        original = x
        i = 0
        for y in partials:
            if fabs(x) < fabs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
        del partials[i:]
        if x != 0.0:
            if not isfinite(x):
                # From an inf or nan among the items, or else an intermediate overflow.
                if isfinite(original):
                    raise OverflowError("intermediate overflow in fsum")
                if isinf(original):
                    inf_sum += original
                special += original
                partials = []
            else:
                partials.append(x)
    if special != 0.0:
        if isnan(inf_sum):
            raise ValueError("-inf + inf in fsum")
        return special
    hi = 0.0
    n = len(partials)
    if n > 0:
        n -= 1
        hi = partials[n]
        lo = 0.0
        while n > 0:
            x = hi
            n -= 1
            y = partials[n]
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                break
        # Half-even rounding across several partials.
        if n > 0 and ((lo < 0.0 and partials[n - 1] < 0.0) or (lo > 0.0 and partials[n - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            if y == x - hi:
                hi = x
    return hi


def _split_double(x):
    # Dekker's split: hi holds the upper 26 bits, lo the rest, hi + lo == x exactly.
    t = x * 134217729.0
    hi = t - (t - x)
    return hi, x - hi


def _mul_exact(x, y):
    # Dekker's product: z + zz == x * y exactly.
    xh, xl = _split_double(x)
    yh, yl = _split_double(y)
    p = xh * yh
    q = xh * yl + xl * yh
    z = p + q
    return z, p - z + q + xl * yl


def _vector_norm(values):
    # CPython 3.11's vector_norm: the values scaled by a power of two below the largest, their
    # squares summed with exact products and compensated sums, and a correction step.
    largest = 0.0
    found_nan = False
    for x in values:
        if isnan(x):
            found_nan = True
        elif fabs(x) > largest:
            largest = fabs(x)
    if isinf(largest):
        return largest
    if found_nan:
        return nan
    if largest == 0.0 or len(values) <= 1:
        return largest
    # scale = 2 ** -e where largest = m * 2 ** e with 0.5 <= m < 1 (frexp), by exact halvings.
    scale = 1.0
    m = largest
    while m >= 1.0:
        m *= 0.5
        scale *= 0.5
    while m < 0.5:
        m *= 2.0
        scale *= 2.0
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    for x in values:
        x = x * scale
        hi, lo = _mul_exact(x, x)
        total = csum + hi
        frac1 += lo
        frac2 += hi - (total - csum)
        csum = total
    h = sqrt(csum - 1.0 + (frac1 + frac2))
    hi, lo = _mul_exact(-h, h)
    total = csum + hi
    frac1 += lo
    frac2 += hi - (total - csum)
    csum = total
    x = csum - 1.0 + (frac1 + frac2)
    h += x / (2.0 * h)
    return h / scale


def hypot(*coordinates):
    """The Euclidean norm, sqrt(sum(x * x for x in coordinates))."""
    values = []
    for x in coordinates:
        _real(x)
        values.append(float(x))
    return _vector_norm(values)


def dist(p, q, /):
    """The Euclidean distance between two points of the same dimension."""
    # Any iterable is a point, as in CPython (which makes a tuple of each).
    if not isinstance(p, tuple):
        p = tuple(p)
    if not isinstance(q, tuple):
        q = tuple(q)
    if len(p) != len(q):
        raise ValueError("both points must have the same number of dimensions")
    values = []
    for i in range(len(p)):
        _real(p[i])
        _real(q[i])
        values.append(fabs(float(p[i]) - float(q[i])))
    return _vector_norm(values)


def isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0):
    """Whether a and b are close: within rel_tol of the larger magnitude or within abs_tol."""
    _real(a)
    _real(b)
    _real(rel_tol)
    _real(abs_tol)
    a = float(a)
    b = float(b)
    if rel_tol < 0.0 or abs_tol < 0.0:
        raise ValueError("tolerances must be non-negative")
    if a == b:
        return True
    if isinf(a) or isinf(b):
        return False
    diff = fabs(b - a)
    return (diff <= fabs(rel_tol * b)) or (diff <= fabs(rel_tol * a)) or (diff <= abs_tol)
