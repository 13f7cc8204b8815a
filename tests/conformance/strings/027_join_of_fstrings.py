# "sep".join(f"..." for ...) writes each f-string's pieces straight into the join's text (no
# str per item): the same text, the same errors, and what a field raises leaves no half-joined
# result behind.
history = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "héllo\nwörld"}]
print("\n".join(f"{m['role']}: {m['content']}" for m in history))
print("\n".join(f"{m['role']}: {m['content']}" for m in history[-1:]))
print(repr("-".join(f"<{x}>" for x in [])))
print(repr("".join(f"" for x in range(3))), repr(",".join(f"" for x in range(3))))
print("".join(f"{x:>3}|{x!r}|{x!s:<4}|" for x in ["a", "bé", 7]))
print(", ".join(f"{k}={v}" for k, v in {"a": 1, "b": [2, 'q'], "c": None}.items()))
print("+".join(f"{i}{'!' if i % 2 else ''}" for i in range(7) if i != 3))
print(" ".join(f"{f'{i}' * i}" for i in range(4)))
print("".join(f"{i:0{w}d}" for i, w in [(1, 3), (22, 5)]))
print("/".join(f"{'é' * i}{i:.1f}" for i in range(3)))

# A spec's escapes are decoded unless the f-string is raw, as anywhere else.
print("|".join(f"{x:\x3e5}" for x in "ab"), "".join(rf"\n{x}" for x in "ab"))
try:
    print("|".join(rf"{x:\x3e5}" for x in "ab"))
except ValueError as e:
    print("caught", repr(e))


def bad(x):
    return 1 / x


try:
    print("+".join(f"{bad(x)}" for x in [1, 2, 0, 4]))
except ZeroDivisionError as e:
    print("caught", e)
try:
    print("+".join(f"{m['name']}" for m in history))
except KeyError as e:
    print("caught", repr(e))
it = iter(["p"])
try:
    print("-".join(f"{next(it)}" for _ in range(3)))
except RuntimeError as e:
    print("caught", repr(e))

# Long results, across many items and buffer growths.
joined = "\n".join(f"message {i}: {'x' * (i % 50)}" for i in range(3000))
print(len(joined), joined[:12], joined[-12:], joined.count("\n"))
