def f(a, b, *, scale=1, offset=0):
    return (a + b) * scale + offset
print(f(1, 2), f(1, 2, scale=10), f(1, 2, offset=5, scale=2))
def g(*, required):
    return required * 2
print(g(required=21))
try:
    f(1, 2, 3)
except TypeError as e:
    print("TypeError:", e)
try:
    g()
except TypeError as e:
    print("TypeError:", e)
