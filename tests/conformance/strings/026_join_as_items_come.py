# str.join of a generator expression or an iterator joins its items as they come (no list of
# them), and still does what CPython's list-first join does: every item is made before an
# error about one of them, the error names the first that is not a str, and the one item of a
# one-item join is the result itself.
made = []


def item(v):
    made.append(v)
    return v


def attempt(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(repr(e))
    print(made)
    made.clear()


sep = ", "
words = ["alpha", "beta", "gamma"]

# Literal separator (inline loop) and a separator in a variable (an iterator).
print("-".join(w.upper() for w in words))
print(sep.join(w.upper() for w in words))
print("".join(w for w in words if "a" in w[1:]))
print(sep.join(iter(words)))
print("+".join(map(str, range(12))))
print("|".join(filter(None, ["", "x", "", "y"])))
print("/".join(k for k in {"b": 1, "a": 2}))
print("".join(c * 2 for c in "abc"), "".join(c for w in words for c in w[:2]))

# Nothing, one item (itself, not a copy), two.
print(repr("-".join(w for w in [])), repr(sep.join(iter([]))))
x = "one" * 3
print("-".join(w for w in [x]) is x, sep.join(iter([x])) is x)
print("-".join(w for w in [x, x]) is x)
print(repr("".join(w for w in ["", ""])), repr("ab".join(w for w in ["", "", ""])))

# An item that is not a str: TypeError after every item was made, naming the first such.
attempt(lambda: "-".join(item(v) for v in ["a", 1, "b", 2.5, "c"]))
attempt(lambda: sep.join(map(item, ["a", None, "b", [1]])))
attempt(lambda: "-".join(item(v) for v in [7]))
attempt(lambda: "-".join(item(v) for v in [7, "x"]))
attempt(lambda: "".join(item(v) for v in ["a", ("t",)]))

# The generator's own error wins over an item's, as it does in CPython (the list is made
# first).
attempt(lambda: "-".join(item(v) if v != "boom" else str(1 // 0) for v in ["a", 1, "b", "boom", "c"]))
attempt(lambda: sep.join(item(1 // (3 - i)) if i else "s" for i in range(5)))
attempt(lambda: "-".join(str(1 // (2 - i)) for i in range(4)))

# StopIteration raised inside the generator's code becomes RuntimeError.
it = iter(["p"])
attempt(lambda: "-".join(next(it) for _ in range(3)))

# Non-ASCII text, and long results built across many items.
print("·".join(c for c in "héllo wörld"), len("é".join(str(i) for i in range(5000))))
big = "".join(str(i % 10) * 100 for i in range(3000))
print(len(big), big[:5], big[-5:], big.count("9"))
print(len(sep.join(str(i) for i in range(20000))), sep.join(str(i) for i in range(20000))[-12:])
