# `for ... in range(...)` edge cases.
def show(*args):
    items = []
    for i in range(*args) if False else []:
        items.append(i)
    return items


print([i for i in range(5)], [i for i in range(2, 11, 3)], [i for i in range(10, 0, -3)])
out = []
for i in range(10, 0, -3):
    out.append(i)
print(out, i)
out = []
for i in range(-5, 5, 4):
    out.append(i)
print(out, i)
for j in range(3):
    pass
print("after", j)
k = "unchanged"
for k in range(0):
    print("never")
print(k)
for k in range(5, 5):
    print("never")
for k in range(5, 0):
    print("never")
for k in range(0, 5, -1):
    print("never")
print(k)
for i in range(3):
    if i == 1:
        break
else:
    print("no else after break")
print("broke at", i)
for i in range(3):
    if i == 1:
        continue
    print("body", i)
else:
    print("else runs", i)
for i in range(4):
    i = i * 10
    print("rebound", i)
print(i)
step = -2
print([n for n in range(6, -1, step)])
for n in range(6, -1, step):
    last = n
print(last)
big = 2**62
for n in range(big - 2, big + 2):
    print(n, n - big)
for n in range(-big + 1, -big - 2, -1):
    print(n + big)
for n in range(3, (2**62 - 1) + 2**62, 2**62):
    print(n)
calls = []


def arg(v):
    calls.append(v)
    return v


for n in range(arg(1), arg(7), arg(2)):
    calls.append(-n)
print(calls)
stop = 3
for n in range(stop):
    stop = 10
    print("stop once", n)
for bad in [(0, 5, 0), ("a",), (1.5,), (1, "x"), (None, 2, 1)]:
    try:
        for n in range(*bad):
            pass
        print("no error", bad)
    except (ValueError, TypeError) as e:
        print("ValueError" if isinstance(e, ValueError) else "TypeError", e)
try:
    for n in range(0, 5, 0):
        pass
except ValueError as e:
    print("ValueError", e)
try:
    for n in range("3"):
        pass
except TypeError as e:
    print("TypeError", e)
for n in range(True, 3):
    print("bool start", n)
total = 0
for a in range(3):
    for b in range(a, 3):
        for c in range(b, -1, -1):
            total += a * 100 + b * 10 + c
print(total)


def unbound():
    for q in range(0):
        pass
    return q


try:
    unbound()
except UnboundLocalError as e:
    print("UnboundLocalError", e)
fns = []
for n in range(3):
    fns.append(lambda: n)
print([f() for f in fns])
print(show(3))
