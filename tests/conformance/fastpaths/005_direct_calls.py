# Calls of names bound by `def`: rebinding, arity errors, defaults, closures, recursion.
def add(a, b):
    return a + b


def twice(f, x):
    return f(f(x))


print(add(1, 2), add("a", "b"), twice(lambda v: v * 3, 2))
original = add


def add(a, b):
    return a - b


print(add(5, 3), original(5, 3))


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


saved = fib
print(fib(15))
fib = lambda n: -1
print(saved(5))
fib = saved


def greet(name, greeting="hello"):
    return greeting + " " + name


print(greet("a"), greet("b", "hi"), greet(name="c"), greet("d", greeting="yo"))
for call in [lambda: add(1), lambda: add(1, 2, 3), lambda: greet(), lambda: add(1, c=2)]:
    try:
        print(call())
    except TypeError as e:
        print("TypeError", e)


def counter():
    count = 0

    def step(by):
        nonlocal count
        count += by
        return count

    return step


c1, c2 = counter(), counter()
print(c1(1), c1(2), c2(10), c1(3))
makers = []
for i in range(3):
    def make(x):
        return x + i
    makers.append(make)
print([m(10) for m in makers])


def shadow():
    def inner(x):
        return x * 2

    result = [inner(3)]
    inner = len
    result.append(inner([1, 2]))
    return result


print(shadow())


def not_callable():
    return 1


not_callable = 5
try:
    not_callable()
except TypeError as e:
    print("TypeError", e)


def deep(n):
    return 0 if n == 0 else 1 + deep(n - 1)


print(deep(500))
try:
    deep(5000)
except RecursionError as e:
    print("RecursionError", e)
print(deep(10))


def star(*args):
    return len(args)


def kw(**kwargs):
    return sorted(kwargs)


print(star(), star(1, 2), kw(a=1, b=2), add(*[1, 2]), add(**{"a": 1, "b": 2}))
try:
    def final(x):
        return x + 1
finally:
    def final(x):
        return x + 2
print(final(1))


def order(tag):
    print("evaluated", tag)
    return tag


def three(a, b, c):
    return a + b + c


print(three(order("a"), order("b"), order("c")))
print(len([1, 2, 3]), max(3, 9, 2), abs(-4), sorted([3, 1, 2]))
try:
    len(5)
except TypeError as e:
    print("TypeError", e)
