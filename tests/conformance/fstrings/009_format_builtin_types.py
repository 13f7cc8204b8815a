print(f"{True}|{False:d}|{True:>6}|{None!r}")
print(f"{10:.2f}|{3:e}|{7:%}")
print(f"{-0.0}|{1e-05}|{1e22}")
print(f"{'x'!r:^7}|")
vals = [0, 1.5, "s", [1], (2,), {"a": 1}]
for v in vals:
    print(f"<{v}>", f"<{v!r}>")
