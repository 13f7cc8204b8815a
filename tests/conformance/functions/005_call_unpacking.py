def f(a, b, c=0, *rest, **kw):
    return a, b, c, rest, kw
args = [1, 2]
print(f(*args))
print(f(*[1, 2, 3, 4, 5]))
print(f(*args, **{"c": 9}))
print(f(**{"a": "A", "b": "B", "z": "Z"}))
print(f(0, *(1, 2), *[3], **{"k": 1}, m=2))
print(max(*[3, 9, 2]), print(*["a", "b"], sep="-"))
pairs = [(1, 2), (3, 4)]
print(list(zip(*pairs)))
