# A dict display evaluates every key and value, left to right, before it builds the dict: a key
# that cannot be hashed raises after the items after it were evaluated. A later equal key
# replaces the value and keeps the first key's place.
def show(x):
    print("evaluated", x)
    return x
try:
    d = {show([1]): show("v1"), show("k2"): show("v2")}
except TypeError as e:
    print("TypeError:", e)
try:
    d = {show("k1"): show("v1"), show([2]): show("v2")}
except TypeError as e:
    print("TypeError:", e)
print({1: "a", 1.0: "b"}, {True: 1, 1: 2}, {"x": [show(3)]})
print([show(1), show(2), show(3), show(4)], [show(5)])
def f(**kw):
    return kw
print(f(b=show("b"), a=show("a")), f(only=show(0)))
try:
    print({show("k"): {show([])}})
except TypeError as e:
    print("TypeError:", e)
