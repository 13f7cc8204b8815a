# Products at the edge of the compiled small-int multiply: (-2^31)^2 = 2^62 is one past the
# small-int range and must come out exact (found by baton-difftest; it wrapped to -2^62).
edge = -2147483648
values = [edge, edge + 1, -edge - 1, -edge, 3037000499, -3037000499, 65536, -65536, 1, -1, 0]
for a in values:
    row = []
    for b in values:
        try:
            row.append(a * b)
        except OverflowError:
            row.append("overflow")
    print(a, row)
print(min([12, edge, -4, 1, -2, 8, 9], key=lambda v: v * v))
print([v * v for v in [edge, edge + 1, -edge]])
x = edge
x *= edge
print(x, x == 2 ** 62, -x // 2)
