# `str(x)` of the builtin with one argument is compiled to the conversion itself, and a small
# int's decimal is written straight into its str: every size of int across the small/big
# boundary, negative ones, and every other kind of value, as CPython prints them; a shadowed or
# rebound `str`, and `str` with other arguments, take the general call.
for v in [0, -1, 1, 9, 10, -10, 99, 100, -999, 1000, 4611686018427387903, 4611686018427387904,
          -4611686018427387904, -4611686018427387905, 9223372036854775807,
          -9223372036854775807 - 1, 12345678901234567]:
    s = str(v)
    print(s, len(s), s == repr(v) == f"{v}", int(s) == v)
print(str(True), str(None), str(1.5), str(-0.0), str("x"), str([1, -2]), str((3,)), str({-4: -5}))
print(str(ord("a")), str(str), str(range(3)), str(ValueError("bad")), str(KeyError("k")))
print(repr(str()), str(object="o"), str(*[5]))
x = str
print(x(7) + str(8))
def shadowed(str):
    return str(9)
print(shadowed(lambda v: v * 2))
try:
    str(1, 2)
except TypeError as e:
    print("TypeError:", e)
