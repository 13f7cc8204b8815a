# repr of floats that are short decimals takes a fast path (runtime/wat/num.wat,
# $digits_shortest): its digits must be the exact shortest ones, for every kind of value.
import json

# Values are checked as they are made (no list of them all), which keeps the program quick
# under the collector's stress mode.
state = {"count": 0, "digest": 0}
lines = []


def check(v, show=False):
    text = repr(v)
    neg = repr(-v)
    assert neg == "-" + text, (text, neg)
    assert float(text) == v, text
    state["digest"] = (state["digest"] * 31 + sum(map(ord, text))) % 1000000007
    if state["count"] % 97 == 0 or show:
        lines.append(text)
    state["count"] += 1


first = []
for i in range(1, 600):
    for v in (i / 10, i / 100, i * 0.1, i * 0.01, i * 1.1, i / 8, 1 / i, i / 7, i * 0.5 + 0.25,
              i * 1e-7, i * 3.3e-12, i * 123456.789, i * 1.5e14, i / 3 * 1e10):
        check(v)
        if len(first) < 40:
            first.append(v)

# pseudo-random values of every magnitude
seed = 12345
for i in range(1500):
    seed = (seed * 1103515245 + 12345) % 2147483648
    mantissa = seed / 2147483648
    check(mantissa * 10.0 ** (i % 40 - 20))
    check(round(mantissa * 1000, i % 6))

# near the fast path's bounds: m just under and over 2^50, j = 17 and 18
edge = [
    1125899906842623.5, 1125899906842624.5, 112589990684262.35, 11258999068426.235,
    0.1 + 0.2, 1 - 1e-16, 9007199254740991.0, 9007199254740993.0, 4503599627370495.5,
    1e-17, 1.5e-17, 1e-18, 1.2345678901234567e-5, 123456789012.34567, 0.30000000000000004,
    5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e16, 1e15 + 0.5, 0.1 * 3,
    2.675, 1.005, 0.145, 1234.5678, 100.0, 1e22, 1e23, 33.33, 0.000123, 0.0001, 0.00001,
]
for v in edge:
    check(v, True)

print(state["count"], state["digest"])
print(" ".join(lines))
print(json.dumps(first))
print(str(first[10]), f"{first[20]}", f"{first[30]!r}")
