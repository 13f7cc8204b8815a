people = [{"name": "ann", "age": 31}, {"name": "bob", "age": 17}, {"name": "cy", "age": 45}]
adults = [p["name"] for p in people if p["age"] >= 18]
print(adults)
print({p["name"]: p["age"] > 40 for p in people})
print(sorted(p["age"] for p in people))
primes = [n for n in range(2, 50) if all(n % d for d in range(2, n))]
print(primes)
