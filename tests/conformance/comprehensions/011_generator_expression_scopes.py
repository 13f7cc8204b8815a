# Lazy generator expressions in default arguments, lambdas, nested closures, a generator that
# outlives its function, and one whose step calls a closure that rebinds a nonlocal.
def f(a=sum(x for x in range(4))):
    return a
print(f())
g = lambda n: sum(x * n for x in range(n))
print(g(3))
def outer():
    k = 2
    def inner():
        m = 10
        return list(x * k + m for x in range(3))
    return inner()
print(outer())
def make():
    base = 5
    return (base + i for i in range(3))
it = make()
print(list(it))
def counter():
    n = 0
    def bump():
        nonlocal n
        n += 1
        return n
    return [v for v in (bump() for _ in range(3))], n
print(counter())
total = 0
for s in (str(i) for i in range(3)):
    total += int(s)
print(total, "-".join(w.strip() for w in [" a", "b "]), tuple(i for i in range(3) if i))
print(sorted(((k, v) for k, v in {"b": 1, "a": 2}.items()), key=lambda kv: kv[1]))
