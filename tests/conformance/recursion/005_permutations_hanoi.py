def perms(xs):
    if len(xs) <= 1:
        return [xs]
    out = []
    for i in range(len(xs)):
        for p in perms(xs[:i] + xs[i + 1:]):
            out.append([xs[i]] + p)
    return out
print(perms([1, 2, 3]))
moves = []
def hanoi(n, a, b, c):
    if n == 0:
        return
    hanoi(n - 1, a, c, b)
    moves.append((a, c))
    hanoi(n - 1, b, a, c)
hanoi(4, "A", "B", "C")
print(len(moves), moves[:5])
