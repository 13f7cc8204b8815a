for n in range(5):
    print(n, "even" if n % 2 == 0 else "odd")
data = [5, 3, 8, 1]
if (n := len(data)) > 3:
    print("long list", n)
vals = []
i = 0
while (v := i * i) < 20:
    vals.append(v)
    i += 1
print(vals, v)
print([y for x in range(5) if (y := x * 3) % 2 == 0])
