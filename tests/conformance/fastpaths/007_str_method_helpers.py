# strip/split/rsplit/startswith/endswith/join/replace called with plain positional arguments go
# straight to their implementation (runtime/wat/fast.wat, $fast_strip and the rest) when the
# receiver and arguments have the common types; every other case must behave exactly as the
# generic method call: other receivers, None and odd maxsplit values, tuples of prefixes, and
# each TypeError and AttributeError message. Receiver and arguments are evaluated in order.
order = []


def note(tag, value):
    order.append(tag)
    return value


text = "  a,b,,c  "
print(repr(text.strip()), repr(text.lstrip()), repr(text.rstrip()), repr("".strip()))
print(text.split(), text.split(","), text.split(",", 1), text.split(None), text.split(None, 1))
print(text.rsplit(), text.rsplit(","), text.rsplit(",", 1), text.rsplit(None, 1), text.split(",", -2))
print("a b".split(" ", 0), "a b".rsplit(" ", 0), "abc".split("abc"), "é,ü".split(","), "é ü".rsplit(None, 1))
print("abc".startswith("ab"), "abc".startswith(""), "abc".startswith("abcd"), "abc".endswith("bc"), "abc".endswith(""))
print("abc".startswith(("x", "a")), "abc".endswith(("x", "y")), "é".startswith("é"), "aé".endswith("é"))
print("-".join(["a", "b"]), "".join([]), ", ".join("xyz"), ", ".join(k for k in ("p", "q")), "é".join("ab"))
print("a-b-a".replace("a", "x"), "aaa".replace("", "-"), "abc".replace("z", "y"), "é".replace("é", "e"))
print(note("recv", "a b").split(note("sep", " "), note("max", 1)), note("recv2", "ab").startswith(note("x", "a")), order)
for bad in [
    lambda: "a".split(1), lambda: "a".split(""), lambda: "a".split(",", "1"), lambda: "a".split(",", 1.5),
    lambda: "a".rsplit(2), lambda: "a".startswith(1), lambda: "a".endswith(["a"]),
    lambda: "a".join([1]), lambda: "a".join(5), lambda: "a".replace(1, "b"), lambda: "a".replace("a", 2),
    lambda: [1].strip(), lambda: (1,).split(), lambda: {}.startswith("a"), lambda: (5).join([]),
    lambda: None.replace("a", "b"),
]:
    try:
        print(bad())
    except TypeError as e:
        print("TypeError", e)
    except ValueError as e:
        print("ValueError", e)
    except AttributeError as e:
        print("AttributeError", e)
print("a,b".split(",", True), "a,b,c".split(",", False))
