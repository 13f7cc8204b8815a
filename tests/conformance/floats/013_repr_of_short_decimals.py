# repr of floats that are short decimals takes a fast path (runtime/wat/num.wat,
# $digits_shortest): its digits must be the exact shortest ones, for every kind of value.
import json

values = []
for i in range(1, 2000):
    values.append(i / 10)
    values.append(i / 100)
    values.append(i * 0.1)
    values.append(i * 0.01)
    values.append(i * 1.1)
    values.append(i / 8)
    values.append(1 / i)
    values.append(i / 7)
    values.append(i * 0.5 + 0.25)
    values.append(i * 1e-7)
    values.append(i * 3.3e-12)
    values.append(i * 123456.789)
    values.append(i * 1.5e14)
    values.append(i / 3 * 1e10)

# pseudo-random values of every magnitude
state = 12345
for i in range(3000):
    state = (state * 1103515245 + 12345) % 2147483648
    mantissa = state / 2147483648
    values.append(mantissa * 10.0 ** (i % 40 - 20))
    values.append(round(mantissa * 1000, i % 6))

# near the fast path's bounds: m just under and over 2^50, j = 17 and 18
edge = [
    1125899906842623.5, 1125899906842624.5, 112589990684262.35, 11258999068426.235,
    0.1 + 0.2, 1 - 1e-16, 9007199254740991.0, 9007199254740993.0, 4503599627370495.5,
    1e-17, 1.5e-17, 1e-18, 1.2345678901234567e-5, 123456789012.34567, 0.30000000000000004,
    5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e16, 1e15 + 0.5, 0.1 * 3,
    2.675, 1.005, 0.145, 1234.5678, 100.0, 1e22, 1e23, 33.33, 0.000123, 0.0001, 0.00001,
]
values.extend(edge)

digest = 0
lines = []
for n, v in enumerate(values):
    text = repr(v)
    neg = repr(-v)
    assert neg == "-" + text, (text, neg)
    assert float(text) == v, text
    digest = (digest * 31 + sum(map(ord, text))) % 1000000007
    if n % 97 == 0 or n >= len(values) - len(edge):
        lines.append(text)
print(len(values), digest)
print(" ".join(lines))
print(json.dumps(values[:40]))
print(str(values[100]), f"{values[200]}", f"{values[300]!r}")
