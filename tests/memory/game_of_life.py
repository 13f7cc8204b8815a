# Conway's game of life on a 48x48 torus for 300 generations, a new grid each generation.
N = 48
grid = [[1 if (x * 7 + y * 13) % 5 == 0 or (x + y) % 11 == 0 else 0 for x in range(N)] for y in range(N)]
def step(g):
    new = []
    for y in range(N):
        row = []
        for x in range(N):
            n = 0
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if dy or dx:
                        n += g[(y + dy) % N][(x + dx) % N]
            row.append(1 if n == 3 or (n == 2 and g[y][x]) else 0)
        new.append(row)
    return new
for generation in range(300):
    grid = step(grid)
print(sum(map(sum, grid)), "".join(str(c) for c in grid[0]))
