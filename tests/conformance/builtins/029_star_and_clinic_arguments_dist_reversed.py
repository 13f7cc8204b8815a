# Findings of the mutation fuzzer's second hour (seed 43), each a silent difference in what a
# plan prints: the wording of `*` unpacking errors (CPython names the callee only when the
# unpacking is the call's only positional argument), pow()'s and round()'s argument checks in
# CPython's order (missing before unknown; a name given twice is an error, not ignored),
# math.dist of any iterable, and the names of reverse iterators.
import math


def t(f):
    try:
        print(f())
    except Exception as e:
        print("TypeError" if isinstance(e, TypeError) else "ValueError" if isinstance(e, ValueError) else "other", e)


t(lambda: divmod(1, *0.0))
t(lambda: divmod(*0.0))
t(lambda: divmod(*[1], *0.0))
t(lambda: divmod(*0.0, 1))
t(lambda: max(1, *2))
t(lambda: len(*0.0))
t(lambda: pow(foo=1))
t(lambda: pow(1, foo=1))
t(lambda: pow(1, 2, foo=1))
t(lambda: pow(exp=2, foo=1))
t(lambda: pow(1, 2, exp=3))
t(lambda: pow(2, exp=3))
t(lambda: pow(base=2, exp=3, mod=5))
t(lambda: pow(1, 2, base=3, foo=1))
t(lambda: pow(base=1, exp=2, mod=3, foo=4))
t(lambda: round(foo=1))
t(lambda: round(1.5, foo=1))
t(lambda: round(2.5, number=2))
t(lambda: round(number=2.675, ndigits=2))
t(lambda: round(1, 2, 3, foo=1))
t(lambda: math.dist(*[1, 2]))
t(lambda: math.dist([1], 2))
t(lambda: math.dist({1}, {2}))
t(lambda: math.dist(range(2), (1, 1)))
t(lambda: math.dist(iter([3]), [0]))
t(lambda: math.dist("ab", "cd"))
t(lambda: math.dist([1], [1, 2]))
d = {1: 2}
for x in [[1], (1,), "ab", d, d.keys(), d.values(), d.items(), range(2)]:
    print(repr(reversed(x)).split(" at ")[0], list(reversed(x)))
