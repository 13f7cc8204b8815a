# A StopIteration raised by map's or filter's function leaves the iterator's `__next__`, which
# is how an iterator ends: whoever draws from it sees the end, not an exception. The iterator
# is not finished for good: the next draw calls the function again.
def stopper(limit):
    seen = []
    def f(x):
        if len(seen) == limit:
            seen.append("stop")
            raise StopIteration("done at " + str(x))
        seen.append(x)
        return x * 10
    return f, seen

f, seen = stopper(2)
m = map(f, [1, 2, 3, 4, 5])
print(list(m), seen)
print(list(m), seen)

it = iter([1])
print(list(map(lambda x: next(it), [7, 8, 9])))

f, seen = stopper(3)
print(sum(map(f, range(10))), seen)

f, seen = stopper(1)
for v in map(f, "abc"):
    print("loop", v)
print(seen)

f, seen = stopper(2)
print(list(zip("xyz", map(f, [1, 2, 3]))))

f, seen = stopper(1)
m = map(f, [1, 2, 3])
print(next(m), next(m, "default"), next(m, "default"))
try:
    f2, _ = stopper(0)
    next(map(f2, [1]))
except StopIteration as e:
    print("next raises", repr(e) == repr(e), isinstance(e, StopIteration))

f, seen = stopper(2)
print(list(map(lambda a, b: f(a) + b, [1, 2, 3], [10, 20, 30])))

def odd_until_five(x):
    if x >= 5:
        raise StopIteration
    return x % 2
print(list(filter(odd_until_five, range(10))))
print(sorted(filter(odd_until_five, [9, 3, 1, 7])))
print(sum(x for x in map(odd_until_five, range(10))))
print(list(map(str, filter(odd_until_five, map(abs, [-1, -2, -3, -9, -4])))))

def boom(x):
    raise KeyError(x)
try:
    list(map(boom, [1]))
except KeyError as e:
    print("other exceptions pass", repr(e))
try:
    list(filter(boom, [2]))
except KeyError as e:
    print("other exceptions pass", repr(e))

# Many stops in one loop: each gives back the frames it abandoned.
def deep(n):
    if n == 0:
        raise StopIteration
    return deep(n - 1)
total = 0
for i in range(3000):
    total += len(list(map(deep, [3])))
print("after many stops", total)
