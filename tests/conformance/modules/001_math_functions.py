# math's functions over a spread of arguments: results equal to CPython's, digit for digit
# (the host computes them with the C library CPython's math module calls).
import math

values = [0.0, -0.0, 0.5, 1.0, 2.0, 3.0, 10.0, 100.0, 1e-10, 1e10, -1.5, 0.1, 0.7, 123.456, 1e300, 5e-324]
for name, f in [
    ("exp", math.exp), ("exp2", math.exp2), ("expm1", math.expm1), ("sin", math.sin),
    ("cos", math.cos), ("tan", math.tan), ("atan", math.atan), ("sinh", math.sinh),
    ("cosh", math.cosh), ("tanh", math.tanh), ("asinh", math.asinh), ("cbrt", math.cbrt),
    ("erf", math.erf), ("erfc", math.erfc), ("fabs", math.fabs),
]:
    out = []
    for x in values:
        try:
            out.append(repr(f(x)))
        except (ValueError, OverflowError) as e:
            out.append(repr(e))
    print(name, " ".join(out))

for name, f in [
    ("sqrt", math.sqrt), ("log", math.log), ("log2", math.log2), ("log10", math.log10),
    ("log1p", math.log1p), ("asin", math.asin), ("acos", math.acos), ("acosh", math.acosh),
    ("atanh", math.atanh),
]:
    out = []
    for x in values + [-1.0, -2.0, 0.25, 0.999]:
        try:
            out.append(repr(f(x)))
        except (ValueError, OverflowError) as e:
            out.append(repr(e))
    print(name, " ".join(out))

pairs = [(2.0, 0.5), (2.0, 10.0), (-2.0, 3.0), (10.0, -2.0), (1.5, 2.5), (0.0, 0.0), (7.0, 3.0), (-7.0, 3.0), (1e300, 10.0), (0.0, -1.0), (-8.0, 1.0 / 3.0)]
for name, f in [("pow", math.pow), ("atan2", math.atan2), ("fmod", math.fmod), ("copysign", math.copysign), ("hypot", math.hypot)]:
    out = []
    for x, y in pairs:
        try:
            out.append(repr(f(x, y)))
        except (ValueError, OverflowError, ZeroDivisionError) as e:
            out.append(repr(e))
    print(name, " ".join(out))

print(math.log(8, 2), math.log(100, 10), math.log(2, 0.5), math.log(7))
print(math.pi, math.e, math.tau, math.inf, -math.inf, math.nan)
print(math.isnan(math.nan), math.isnan(1.0), math.isinf(-math.inf), math.isinf(1e308), math.isfinite(math.inf), math.isfinite(3))
print(math.degrees(1), math.radians(90), math.degrees(math.pi / 3), math.radians(-45))
print(math.hypot(), math.hypot(3), math.hypot(3, 4, 12), math.hypot(1e200, 1e200), math.hypot(-0.5, 0.25))
print(math.dist((1, 2), (4, 6)), math.dist([0.1, 0.2, 0.3], [1.1, -2.2, 3.3]))
print(math.fsum([0.1] * 10), math.fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]), math.fsum([]), math.fsum([1, 2.5, True]))
print(math.fsum([1e-16, 1.0, 1e16]), math.fsum([math.inf, 1.0]), math.isclose(1.0, 1.0 + 1e-10), math.isclose(1.0, 1.1, rel_tol=0.2), math.isclose(0.0, 1e-10, abs_tol=1e-9))
print(math.exp(1), math.sqrt(2) * math.sqrt(2), math.sin(math.pi), math.cos(math.pi / 3))
# Angles of a regular polygon, as a plan computing a layout would.
print([round(math.degrees(math.atan2(math.sin(2 * math.pi * k / 5), math.cos(2 * math.pi * k / 5))), 6) for k in range(5)])
