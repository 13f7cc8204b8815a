# A value read from a module global stays alive while other code rebinds the global and
# collects: a function that declares it `global`, a key function, a module-level `try` body.
data = [list(range(5)) for _ in range(3)]
name = "abc" * 3


def rebind():
    global data, name
    data = None
    name = None
    garbage = [[i] * 50 for i in range(2000)]
    return len(garbage)


print(data, name.upper(), rebind(), data, name)

data = [3, 1, 2]


def rebind_in_key(x):
    global data
    data = [0] * 100
    garbage = [str(i) * 3 for i in range(500)]
    return -x + len(garbage) * 0


print(sorted(data, key=rebind_in_key), data[:3])

items = {"k": [1, 2], "j": (3, 4)}
text = "x" * 20
try:
    print(items, text.upper(), [str(v) * 2 for v in items.values()], text)
    total = 0
    for i in range(3):
        total += len(text) + len(items) + len([j * 2 for j in range(100)])
    print(total, items, text)
except Exception as e:
    print("caught", e)


def reader():
    return (items, text, [str(v) for v in items.values()], text[:3])


print(reader())
print(name, data[:2])
