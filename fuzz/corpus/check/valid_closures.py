def counter(start=0, *, step=1):
    n = start
    def bump():
        nonlocal n
        n += step
        return n
    return bump

c = counter(10, step=2)
vals = [c() for _ in range(3)]
table = {k: v for k, v in zip("abc", vals) if v > 10}
print(sorted(table.items()), f"{sum(vals):>8.2f}", {x % 3 for x in vals})
