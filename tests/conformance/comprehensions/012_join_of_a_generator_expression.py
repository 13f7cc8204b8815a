# "sep".join(genexpr) is compiled as a join of the list the generator would make: everything
# observable must stay as CPython's.
items = ["a", "b", "c"]
print(", ".join(x.upper() for x in items))
print("".join(str(i) for i in range(10) if i % 3))
print("-".join(c for c in "xyz"))
print(repr("".join(x for x in [])))

# The variable does not leak; the outer one is untouched.
x = "outer"
print("+".join(x * 2 for x in items), x)

# The iterable is evaluated once, before anything joins; the elements in order.
calls = []


def source():
    calls.append("source")
    return ["p", "q"]


def show(v):
    calls.append(v)
    return v


print("/".join(show(v) for v in source()), calls)

# A non-str element: TypeError after every element was made (join makes a list first).
made = []
try:
    " ".join(made.append(i) or i for i in range(4))
except TypeError as e:
    print("TypeError:", e, made)

# An exception in the element stops at once.
made = []


def boom(i):
    made.append(i)
    if i == 2:
        raise ValueError(f"element {i}")
    return str(i)


try:
    ",".join(boom(i) for i in range(5))
except ValueError as e:
    print("ValueError:", e, made)

# Closures in the element see the comprehension's variable.
print(" ".join((lambda: v)() for v in ["m", "n"]))

# A receiver that is not a literal keeps the lazy generator.
sep = ";"
gen = (str(i) for i in range(3))
print(sep.join(gen), list(gen))

# Nested: the inner join's generator inside the outer's element.
print("|".join(",".join(str(c) for c in row) for row in [[1, 2], [3]]))
