# sum, any, all, min, max, list, set, tuple and sorted of a generator expression run the generator's code
# as their own loop (no step function per item): everything observable stays CPython's.
items = [3, 1, 4, 1, 5, 9, 2, 6]
print(sum(x * x for x in items), sum(x for x in items if x % 2), sum(x for x in []))
print(sum((x for x in items), 100), sum((x / 2 for x in items), 0.5), sum((-0.0 for _ in "a")))
print(sum(([x] for x in items[:3]), []), sum((i * j for i in range(4) for j in range(i))))
print(any(x > 8 for x in items), any(x > 9 for x in items), any(x for x in []))
print(all(x > 0 for x in items), all(x > 1 for x in items), all(x for x in []))
print(any(x - 1 for x in [1, 1]), all(s for s in ["a", ""]), any([] for _ in "ab"))
print(max(x * 2 for x in items), min(x for x in items if x > 3), max(c for w in ["ab", "zc"] for c in w))
print(max(x for x in [1, 1.0]), min(x for x in [1.0, 1]), max(x for x in [2.5, 3, -1]), min(s for s in "bca"))
for empty in ["min", "max"]:
    try:
        print(min(x for x in []) if empty == "min" else max(x for x in items if x > 100))
    except ValueError as e:
        print("ValueError:", e)
try:
    max(x for x in [1, "a"])
except TypeError as e:
    print("TypeError:", e)
try:
    min(x for x in ["a", 2])
except TypeError as e:
    print("TypeError:", e)
print(list(x + 1 for x in items if x > 2), tuple(x for x in "abc"), tuple(x for x in []))
print(sorted(x % 4 for x in items), sorted(set(x % 3 for x in items)), list(x for x in ""))
print(sorted(c for word in ["ba", "dc"] for c in word if c != "c"))

# any and all stop at their answer: the elements after it are never made.
seen = []


def note(v):
    seen.append(v)
    return v


print(any(note(x) > 3 for x in items), seen)
seen.clear()
print(all(note(x) < 4 for x in items), seen)
seen.clear()
print(any(note(i) and note(j) for i in range(3) for j in range(3)), seen)

# The source's iter() comes before sum's start is evaluated, as the generator is made first.
order = []


def source():
    order.append("source")
    return [1, 2]


def start():
    order.append("start")
    return 10


print(sum((order.append(x) or x for x in source()), start()), order)
try:
    sum((x for x in 5), start())
except TypeError as e:
    print("TypeError:", e, order)

# A StopIteration escaping the element's code becomes RuntimeError (PEP 479), in every one of
# them and in a literal's join (also compiled inline); other exceptions pass as they are.
for consumer in ["sum", "any", "all", "min", "max", "list", "set", "tuple", "sorted", "join"]:
    it = iter([1, 2])
    try:
        if consumer == "sum":
            sum(next(it) for _ in range(3))
        elif consumer == "any":
            any(next(it) < 0 for _ in range(3))
        elif consumer == "all":
            all(next(it) for _ in range(3))
        elif consumer == "min":
            min(next(it) for _ in range(3))
        elif consumer == "max":
            max(next(it) for _ in range(3))
        elif consumer == "list":
            list(next(it) for _ in range(3))
        elif consumer == "set":
            set(next(it) for _ in range(3))
        elif consumer == "tuple":
            tuple(next(it) for _ in range(3))
        elif consumer == "join":
            "".join(str(next(it)) for _ in range(3))
        else:
            sorted(next(it) for _ in range(3))
    except RuntimeError as e:
        print(consumer, "RuntimeError:", e)
try:
    sum(int(s) for s in ["1", "x"])
except ValueError as e:
    print("ValueError:", e)
try:
    sum(s for s in ["a", "b"])
except TypeError as e:
    print("TypeError:", e)
try:
    print(sum((s for s in ["a", "b"]), ""))
except TypeError as e:
    print("TypeError:", e)

# The sum's adds happen as items come: a failing add stops before a later element fails.
made = []


def item(i):
    made.append(i)
    if i == 3:
        raise ValueError("late")
    return "x" if i == 1 else i


try:
    sum(item(i) for i in range(5))
except TypeError as e:
    print("TypeError:", e, made)

# Variables stay in the generator's scope; closures see each item's own cell.
x = "outer"
print(sum(x for x in range(4)), x, list((lambda: v)() for v in "pq"))
fns = list((lambda w=v: w * 10) for v in range(3))
print([f() for f in fns], sum(f() for f in fns))


def local_use(n):
    return sum(i * n for i in range(n)), any(i == n - 1 for i in range(n))


print(local_use(4), all(any(c == d for d in "ab") for c in "ba"))

# A plan's own sum or any gets the generator itself, lazily.


def shadow():
    def sum(values, start=0):
        return ("mine", next(values), start)

    return sum(i for i in range(5))


def shadow_any():
    any = lambda values: [v for v in values][:2]
    return any(i * 2 for i in range(5))


print(shadow(), shadow_any())
