s = {x % 4 for x in range(100)}
print(sorted(s), len(s))
print(sorted({c for c in "hello world" if c.isalpha()}))
print({x for x in []} == set())
