# Small ints and `.0f`-`.3f` floats are laid out in place by the f-string builder
# (runtime/wat/fast.wat, $fsb_push_formatted); these are the cases where that path must agree
# with the generic one: halfway values rounded half-to-even on the exact binary value, signs,
# negative zero, tiny and subnormal values, every alignment, fills and zero padding.
halves = [0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, 0.0625, 2.675, 1.005, 0.045, 1e-320, 5e-324]
for x in halves:
    print(f"{x:.0f}|{x:.1f}|{x:.2f}|{x:.3f}|{x:F}")
values = [0.0, -0.0, -0.0001, 3.14159, -2.71828, 123456.789, 1e15 + 0.5, 4503599627370495.5,
          0.1 + 0.2, 1 / 3, -1 / 3, 999.9995, 9.9999]
for x in values:
    print(f"[{x:.1f}] [{x:10.2f}] [{x:<10.3f}] [{x:^11.1f}] [{x:*>9.0f}] [{x:=+10.2f}] [{x:010.1f}] [{x: .3f}] [{x:+.0f}]")
for n in [0, 7, -7, 42, -42, 12345, -12345, 2**40, -2**40, 2**61, -2**61]:
    print(f"[{n:5}] [{n:<5d}] [{n:^7}] [{n:_>6}] [{n:=+8}] [{n:05}] [{n:+d}] [{n: d}] [{n:-d}] [{n:1}]")
w, p = 9, 2
print(f"[{3.14159:{w}.{p}f}] [{-7:{w}}] [{7:>{w}d}]")
print(f"[{True:>5}] [{False:d}] [{2**62:>25}] [{-2**62 * 2:025}] [{float('inf'):8.1f}] [{float('nan'):.2f}]")
print(f"[{1.25:#.0f}] [{1234.5:,.1f}] [{-0.04:z.1f}] [{5:#x}] [{3.5:→>6.1f}] [{17:é^7}]")
for n in [0, 1, 9, 10, 15, 16, 255, -255, 4096, -1, 2**61 + 12345]:
    print(f"[{n:x}] [{n:X}] [{n:o}] [{n:b}] [{n:>8x}] [{n:<6X}] [{n:^9o}] [{n:+x}] [{n:08b}] [{n:=+7x}] [{n:#x}]")
