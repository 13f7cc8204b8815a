# f(*xs, k=v): CPython makes the tuple of xs's items at the call, after the keyword arguments,
# so a keyword argument that changes xs (or raises) comes first (found by baton-difftest).
g5 = [2, 0, 10]
def f30():
    g5.insert(-1, 9)
    return 1
def va67(*rest, **opts):
    return rest, opts
print(va67(*g5, x=f30()))
class_like = {"items": [1, 2]}
def grow():
    class_like["items"].append(3)
    return "k"
print("{}-{}-{}".format(*class_like["items"], sep=grow()))
try:
    va67(*5, x=print("kw first"))
except TypeError as e:
    print("TypeError:", e)
try:
    [].append(*5, x=print("kw first 2"))
except TypeError as e:
    print("TypeError:", e)
print(va67(*(i * 2 for i in range(3)), y=2))
print(va67(*"ab", **{"z": 1}))
