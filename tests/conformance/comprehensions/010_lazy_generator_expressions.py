# A generator expression with one `for` is lazy: its iterable is evaluated (and iter() called)
# where it stands, everything else as it is iterated, with the current values of the names it
# uses (compiler/src/codegen/scopes.rs, runtime/wat/seq.wat $genexp_new). any() stops early,
# a loop that breaks stops it, and an error inside surfaces when the item is asked for.
def side(x):
    print("check", x)
    return x > 1
print(any(side(x) for x in [1, 2, 3, 4]))
g = (x * 2 for x in [1, 2, 3] if x != 2)
print(list(g), list(g))
for v in (side(x) for x in range(3)):
    print("got", v)
    if v:
        break
n = 10
h = (x + n for x in range(3))
n = 100
print(list(h))
def f(items):
    return sum(len(k) * v for k, v in items.items())
print(f({"ab": 2, "c": 3}))
try:
    (x for x in 5)
except TypeError as e:
    print("at creation:", e)
g3 = (1 // x for x in [1, 0])
print("made")
try:
    print(list(g3))
except ZeroDivisionError as e:
    print("when iterated:", e)
print(sorted((y for y in "hello" if y > "e"), reverse=True), "".join(c.upper() for c in "abc"))
print(max(len(w) for w in "a bb ccc".split()), dict((k, k * 2) for k in range(3)))
print(repr((x for x in []))[:30], repr((x for x in "")).startswith("<generator object <genexpr> at 0x"))
def outer():
    return [list(x * y for x in range(y)) for y in range(3)]
print(outer())

def nested():
    k = 3
    gen = (i * k for i in range(4) if i % 2)
    k = 5
    return list(gen)
print(nested())
pairs = [(1, "a"), (2, "b")]
print(list(f"{n}{s}" for n, s in pairs), list(((a, b) for (a, b) in pairs)))
xs = [3, 1, 2]
g = (x for x in xs)
xs.append(9)
print(list(g))
print(all(side(x) for x in [2, 3, 0, 5]), sum(x for x in range(5)), min(x for x in [4, 2, 8]))
print(list(zip((c for c in "ab"), (d * 2 for d in "xyz"))))
def fails():
    return list(x[0] for x in [[1], [], [2]])
try:
    fails()
except IndexError as e:
    print("IndexError:", e)
