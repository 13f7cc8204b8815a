# Generator expressions that builtins run inline, in the places plans put them: a walrus in the
# element (it binds in the enclosing scope), nested consumers, closures over the variable, default
# arguments, lambdas, f-strings, try/finally, recursion, loops, a copy of the builtin under
# another name (called as any function: the lazy generator).
total = sum((last := x) * 2 for x in range(5))
print(total, last)
print(any((found := w).startswith("b") for w in ["apple", "banana", "cherry"]), found)
print(sum(sum(j for j in range(i)) for i in range(6)))
print(max(min(r) for r in [[3, 1], [4, 2], [0, 9]]))
fs = list((lambda y=x: y * 10) for x in range(3))
print([f() for f in fs])
f = lambda xs: all(x > 0 for x in xs)
print(f([1, 2]), f([1, -1]))
def g(xs, k=sum(i for i in range(4))):
    try:
        return tuple(x // k for x in xs)
    finally:
        print("finally", k)
print(g([6, 12]))
print(f"{sum(c.isupper() for c in 'HeLLo')} uppercase", sorted((v for v in {3: 1, 1: 2}), reverse=False))
def rec(n):
    return 1 if n == 0 else sum(rec(n - 1) for _ in range(2))
print(rec(5))
def gen_in_loop():
    out = []
    for i in range(3):
        if any(j == i for j in range(2)):
            continue
        out.append(i)
    return out
print(gen_in_loop())
try:
    print(sum(x for x in None))
except TypeError as e:
    print("TypeError:", e)
def shadow_later():
    r = sum(x for x in [1, 2])
    return r
sum_copy = sum
print(shadow_later(), sum_copy(x for x in [3]))
print(set(x % 3 for x in range(10)) == {0, 1, 2}, list(x for x in range(3) for _ in range(2)))
print(min(x for x in [[2], [1, 5]]), max((s for s in ["b", "a"])))
print(sum((x for x in [0.5, 0.25]), 1), sum(x for x in [True, True]), all(()), any(x for x in ()))
# Each inline generator's frame counts toward the recursion limit, as CPython's does.
def deep_sum(n):
    return sum(deep_sum(n - 1) for _ in [0]) if n else 0
def deep_any(n):
    return any(deep_any(n - 1) for _ in [0]) if n else False
for deep in [deep_sum, deep_any]:
    try:
        deep(100000)
    except RecursionError:
        print("RecursionError")
print(deep_sum(50), deep_any(30))
