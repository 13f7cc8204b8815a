items = [3, 1, 2]
d = {"k": "v", "n": 5}
print(f"{sorted(items)} {len(items)} {max(items)}")
print(f"{d['k']} {d['n'] * 2}")
print(f"{'yes' if items else 'no'}")
print(f"{', '.join(str(i) for i in items)}")
print(f"{[i * i for i in items]}")
print(f"{(lambda v: v + 1)(4)}")
total = 0
for i in items:
    total += i
    print(f"{i:>3}{total:>5}")
