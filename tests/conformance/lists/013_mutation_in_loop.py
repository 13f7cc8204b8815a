xs = [1, 2, 3, 4, 5, 6]
evens = []
for x in xs:
    if x % 2 == 0:
        evens.append(x)
print(evens)
for i in range(len(xs)):
    xs[i] = xs[i] * 10
print(xs)
ys = [1, 2, 3]
for y in ys:
    if y < 3:
        ys.append(y + 10)
print(ys)
