# Function objects carry CPython's qualified name: their repr and argument errors say
# g.<locals>.inner, <listcomp>.<lambda>.
def g():
    def inner(x):
        return x
    return inner
h = g()
print(repr(h).split(' at ')[0])
print(repr(lambda: 1).split(' at ')[0])
try:
    h()
except TypeError as e:
    print(e)
try:
    h(1, 2)
except TypeError as e:
    print(e)
try:
    h(y=2)
except TypeError as e:
    print(e)
class_like = {"m": lambda self: self}
try:
    class_like["m"]()
except TypeError as e:
    print(e)
def g():
    def inner(x):
        return x
    try:
        inner()
    except TypeError as e:
        print(e)
    try:
        inner(1, 2)
    except TypeError as e:
        print(e)
    return inner
g()
def top(a):
    return a
try:
    top()
except TypeError as e:
    print(e)
print(repr([lambda: 1 for _ in range(1)][0]).split(" at ")[0])
