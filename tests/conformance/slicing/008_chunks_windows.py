xs = list(range(11))
chunks = [xs[i:i + 4] for i in range(0, len(xs), 4)]
print(chunks)
windows = [xs[i:i + 3] for i in range(len(xs) - 2)]
print(windows[:3], len(windows))
s = "abcdefgh"
print([s[i:i + 3] for i in range(0, len(s), 3)])
print(s[1:-1][::-1][::2])
