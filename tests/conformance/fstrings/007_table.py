rows = [("apple", 3, 0.5), ("banana", 12, 0.25), ("kiwi", 100, 1.125)]
print(f"{'name':<8}|{'qty':>5}|{'price':>7}")
print("-" * 22)
for name, qty, price in rows:
    print(f"{name:<8}|{qty:>5}|{price:>7.2f}")
total = sum(q * p for _, q, p in rows)
print(f"{'total':<8}|{'':>5}|{total:>7.2f}")
