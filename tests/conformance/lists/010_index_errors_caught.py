xs = [1, 2, 3]
for i in [0, 2, 3, -3, -4]:
    try:
        print(i, xs[i])
    except IndexError as e:
        print(i, "IndexError", e)
try:
    [].pop()
except IndexError as e:
    print("pop:", e)
try:
    xs.remove(42)
except ValueError as e:
    print("remove:", e)
try:
    xs.index(42)
except ValueError as e:
    print("index:", e)
