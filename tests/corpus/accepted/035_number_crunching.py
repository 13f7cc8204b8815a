# numeric builtins over timing data
from baton import bash

raw = bash("for i in 1 2 3 4 5; do echo $((RANDOM % 100)); done").stdout.split()
samples = [int(s) for s in raw]
total = sum(samples)
mean = total / len(samples) if samples else 0.0
spread = max(samples, default=0) - min(samples, default=0)
minutes, seconds = divmod(total, 60)
print(round(mean, 2), abs(-spread), pow(2, 10), 7 // 2, 7 % 3, -7 // 2)
print(bin(total), hex(total), oct(total), int("ff", 16), float("2.5"))
print(f"{minutes}m{seconds:02d}s", chr(65 + len(samples)), ord("a"))
print(sorted(samples, reverse=True), list(reversed(samples)))
print(bool(samples), str(total).zfill(6), 10 ** 3, 2.0 ** -1)
