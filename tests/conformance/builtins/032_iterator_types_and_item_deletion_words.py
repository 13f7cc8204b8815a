# Iterators have CPython's types: list_iterator, str_ascii_iterator, dict_keyiterator, the
# reverse iterators, reversed itself; deleting an item words its TypeError as CPython does
# ("doesn't" for sequences, "does not" for the rest; found by the mutation fuzzer, seed 83).
print(reversed, zip)
for f in [lambda: reversed(1), lambda: reversed(), lambda: reversed([1], x=1), lambda: reversed([1], [2])]:
    try:
        f()
    except TypeError as e:
        print(e)
print(isinstance(reversed((1,)), reversed), isinstance(reversed([1]), reversed), list(reversed("abc")))
print(repr(iter(frozenset([1]))).split(" at ")[0], repr(iter(range(0))).split(" at ")[0])
it = iter([1, 2])
try:
    it[0]
except TypeError as e:
    print(e)
try:
    len(iter("é"))
except TypeError as e:
    print(e)
r = reversed
print(list(r([1, 2, 3])))
for v in [iter([1]), iter((1,)), iter("a"), iter("é"), iter({1:2}), iter({1}), iter(range(2)), reversed([1]), iter({1:2}.values()), iter({1:2}.items())]:
    print(repr(v).split(" at ")[0])
vals = [iter([1]), map(str, [1]), {1}, {1: 2}.keys(), {1: 2}.items(), len, 1.5, True, zip(), enumerate([]), (x for x in [1])]
for v in vals:
    try:
        del v[0]
    except TypeError as e:
        print(e)
    try:
        v[0] = 1
    except TypeError as e:
        print(e)
tests = []
def t1():
    d = 5
    del d["z"]
def t2():
    d = 5
    d["z"] = 1
def t3():
    d = (1, 2)
    del d[0]
def t4():
    d = "ab"
    del d[0]
def t5():
    d = None
    del d[0:1]
def t6():
    d = range(3)
    del d[0]
def t7():
    d = frozenset()
    del d[0]
for t in [t1, t2, t3, t4, t5, t6, t7]:
    try:
        t()
    except TypeError as e:
        print(e)
