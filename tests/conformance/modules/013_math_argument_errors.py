# The argument errors of the functions CPython writes in C, worded as its C argument parsers word them.
import math
names0 = ["floor","ceil","trunc","degrees","radians","isqrt","factorial","gcd","lcm","perm","comb","prod","fsum","hypot","dist","isclose"]
calls = [((), {}), ((1,), {}), ((1, 2), {}), ((1, 2, 3), {}), ((1,2,3,4,5), {}), ((), {"x": 1}), ((1,), {"x": 1}), ((1,), {"k": 1}), ((), {"a": 1, "b": 2}), ((1,), {"a": 1}), ((1,2), {"q": 1}), ((), {"iterable": [1]}), (([1],), {"start": 2}), (([1],), {"start": 2, "z": 1}), ((), {"start": 2})]
names = {"floor": math.floor, "ceil": math.ceil, "trunc": math.trunc, "degrees": math.degrees, "radians": math.radians, "isqrt": math.isqrt, "factorial": math.factorial, "gcd": math.gcd, "lcm": math.lcm, "perm": math.perm, "comb": math.comb, "prod": math.prod, "fsum": math.fsum, "hypot": math.hypot, "dist": math.dist, "isclose": math.isclose}
for n, f in names.items():
    for a, k in calls:
        try:
            r = f(*a, **k)
            print(n, a, k, "->", r)
        except Exception as e:
            print(n, a, k, "!", "error", e)
