import random, struct
rng = random.Random(20240611)
vals = []
def from_bits(b): return struct.unpack('<d', struct.pack('<Q', b))[0]
# uniformly random bit patterns (finite)
while len(vals) < 700:
    x = from_bits(rng.getrandbits(64))
    if x == x and abs(x) != float('inf'): vals.append(x)
for _ in range(500): vals.append(rng.random() * 10 ** rng.randint(-8, 20))
for _ in range(300): vals.append(round(rng.uniform(-1000, 1000), rng.randint(0, 6)))
for _ in range(150): vals.append(float(rng.randint(-10**17, 10**17)))
for _ in range(150): vals.append(from_bits(rng.getrandbits(52)))  # subnormals
for _ in range(100): vals.append(rng.choice([1, -1]) * 10.0 ** rng.randint(-320, 308))
for _ in range(100): vals.append(rng.randint(1, 999) / rng.choice([2, 4, 8, 10, 100, 1000, 3, 7]))
vals += [0.0, -0.0, 5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308, 0.1, 0.2, 0.3, 1e16, 9999999999999998.0, 1e-05, 0.0001, 123456789012345678.0, float(2**53), float(2**53 + 2), float(2**63), float(2**64), 1e23, 1e22, 9.999999999999999e22]
with open('runtime/tests/data/float_repr.txt', 'w') as f:
    f.write('# bits repr format(x,".17g") format(x,".6e") format(x,".3f")-or-- round(x,2)-or--  (CPython 3.11, seed 20240611)\n')
    for x in vals:
        bits = struct.unpack('<Q', struct.pack('<d', x))[0]
        f3 = format(x, '.3f') if abs(x) < 1e25 else '-'
        r2 = repr(round(x, 2)) if abs(x) < 1e25 else '-'
        f.write('%016x %r %s %s %s %s\n' % (bits, x, format(x, '.17g'), format(x, '.6e'), f3, r2))
print(len(vals))
