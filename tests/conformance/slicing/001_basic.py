xs = list(range(10))
print(xs[2:5], xs[:3], xs[7:], xs[:], xs[-3:], xs[:-3])
print(xs[5:2], xs[100:], xs[-100:2], xs[3:3])
s = "abcdefghij"
print(s[2:5], s[:3], s[7:], s[-3:], s[:-3], s[100:200])
t = tuple(xs)
print(t[1:4], t[-2:])
