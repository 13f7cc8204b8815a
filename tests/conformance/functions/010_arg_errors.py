def f(a, b=2):
    return a + b
for call in [lambda: f(), lambda: f(1, 2, 3), lambda: f(1, c=3), lambda: f(1, a=2)]:
    try:
        call()
    except TypeError as e:
        print("TypeError:", e)
def g(x, /, y):
    return x - y
print(g(5, 3), g(5, y=1))
try:
    g(x=1, y=2)
except TypeError as e:
    print("TypeError:", e)
