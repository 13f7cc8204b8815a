counter = [0]
def make_default():
    counter[0] += 1
    return counter[0]
def f(x=make_default()):
    return x
print(f(), f(), f(10), counter)
n = 5
def g(v=n):
    return v
n = 6
print(g())
