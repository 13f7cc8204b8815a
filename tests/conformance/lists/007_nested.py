m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print(m[1][2], m[-1][0])
for row in m:
    print(" ".join(str(v) for v in row))
t = [[m[r][c] for r in range(3)] for c in range(3)]
print(t)
flat = [v for row in m for v in row]
print(flat, sum(flat))
m[0][0] = "x"
print(m[0])
