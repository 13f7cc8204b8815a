s = "abc"
print(f"[{s:>6}][{s:<6}][{s:^6}][{s:6}]")
print(f"[{s:*^9}][{s:->5}][{s:.2}][{s:>6.1}]")
print(f"[{'toolong':3}]")
print(f"[{s!r:>8}]")
w = 10
print(f"[{s:>{w}}]")
p = 3
print(f"[{3.14159:.{p}f}]")
