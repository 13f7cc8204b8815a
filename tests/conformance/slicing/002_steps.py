xs = list(range(10))
print(xs[::2], xs[1::2], xs[::3], xs[1:8:3])
print(xs[::-1], xs[::-2], xs[8:2:-1], xs[8:2:-3])
print(xs[-1:-4:-1], xs[2:8:-1], xs[:5:-1], xs[5::-1])
s = "hello world"
print(s[::-1], s[::2], s[-1::-3], s[10:0:-2])
print((1, 2, 3, 4)[::-1])
