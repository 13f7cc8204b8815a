xs = [1, 2, 3]
try:
    print(xs[::0])
except ValueError as e:
    print("ValueError:", e)
try:
    print("abc"[1:2:0])
except ValueError as e:
    print("ValueError:", e)
print(xs[0:3:1])
