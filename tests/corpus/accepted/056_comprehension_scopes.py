# comprehension variables shadowing outer names and nested comprehension scopes
from baton import bash

x = "outer"
squares = [x * x for x in range(5)]
matrix = [[row * col for col in range(3)] for row in range(3)]
transposed = [[matrix[r][c] for r in range(3)] for c in range(3)]
lookup = {k: v for k, v in zip("abc", range(3)) if v}
unique = {len(w) for w in bash("echo a bb ccc dd").stdout.split()}
total = sum(n for n in squares if n % 2)
print(x, squares, transposed, lookup, sorted(unique), total)
