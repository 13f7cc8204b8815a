grid = {}
for r in range(2):
    for c in range(3):
        grid[(r, c)] = r * 10 + c
print(grid[(1, 2)], grid[0, 1])
print(sorted(grid)[:3])
seen = set()
seen.add((1, 2))
seen.add((1, 2))
seen.add((2, 1))
print(len(seen), (1, 2) in seen, sorted(seen))
