# Every operator the plan language accepts, applied to a value of every builtin type: each gives
# CPython's result or CPython's exception (type and message), never a crash. Binary, unary,
# comparison and augmented operators, as the AST lists them. Left out, as documented deviations:
# complex results (a negative number to a fractional power), `X | Y` of types (union types)
# and set order.
values = [
    0, -3, True, None, 2.5, float("inf"), "ab", [1, 2], (3,), {"k": 1}, {4, 5}, range(3), print,
    ValueError("x"), ValueError,
]
binary = [
    ("+", lambda a, b: a + b), ("-", lambda a, b: a - b), ("*", lambda a, b: a * b),
    ("/", lambda a, b: a / b), ("//", lambda a, b: a // b), ("%", lambda a, b: a % b),
    ("**", lambda a, b: "complex" if isinstance(a, (int, float)) and a < 0 and isinstance(b, float) and b != int(b) else a ** b), ("<<", lambda a, b: a << b), (">>", lambda a, b: a >> b),
    ("|", lambda a, b: "union type" if a is ValueError or b is ValueError else a | b), ("^", lambda a, b: a ^ b), ("&", lambda a, b: a & b),
    ("@", lambda a, b: a @ b),
]
compare = [
    ("==", lambda a, b: a == b), ("!=", lambda a, b: a != b), ("<", lambda a, b: a < b),
    ("<=", lambda a, b: a <= b), (">", lambda a, b: a > b), (">=", lambda a, b: a >= b),
    ("in", lambda a, b: a in b), ("not in", lambda a, b: a not in b),
    ("is", lambda a, b: a is b), ("is not", lambda a, b: a is not b),
]
unary = [("-", lambda a: -a), ("+", lambda a: +a), ("~", lambda a: ~a), ("not", lambda a: not a)]


def augmented(op, a, b):
    x = a
    if op == "+=":
        x += b
    elif op == "-=":
        x -= b
    elif op == "*=":
        x *= b
    elif op == "/=":
        x /= b
    elif op == "//=":
        x //= b
    elif op == "%=":
        x %= b
    elif op == "**=":
        x **= b
    elif op == "<<=":
        x <<= b
    elif op == ">>=":
        x >>= b
    elif op == "|=":
        if x is ValueError:
            return "union type"
        x |= b
    elif op == "^=":
        x ^= b
    elif op == "&=":
        x &= b
    else:
        x @= b
    return x


def name(v):
    # (sets as sorted lists: Baton's set order is insertion order, a documented deviation)
    if isinstance(v, set):
        return "set" + repr(sorted(v))
    for known, text in ((print, "<print>"), (len, "<len>"), (ValueError, "<ValueError>")):
        if v is known:
            return text
    return repr(v)


def show(thunk):
    try:
        r = thunk()
    except Exception as e:
        return repr(e)
    text = name(r)
    return text if len(text) < 60 else text[:60] + "..."


for a in values:
    for op, f in unary:
        print(op, name(a), "->", show(lambda: f(a)))
for a in values:
    for b in values:
        row = [show(lambda: f(a, b)) for _, f in binary]
        row += [show(lambda: f(a, b)) for _, f in compare]
        print(name(a), name(b), "|", " | ".join(row))
for op in ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "<<=", ">>=", "|=", "^=", "&=", "@="]:
    for a in values:
        for b in (1, 2.0, "s", [9], (9,), {9}, {"a": 9}, None):
            print(op, name(a), name(b), "->", show(lambda: augmented(op, a, b)))
