# str methods check their arguments in CPython's order, so a plan's except clause sees the
# same message: start/end of find/index/count/startswith/endswith before the substring,
# maxsplit of split before sep, keepends of splitlines as an int, and argument-clinic
# messages naming None as "None" (found by a fuzz of 4,000 random str method calls).
calls = [
    lambda: "a,b".find(("a",), ("a",)),
    lambda: "a,b".find(1, "x"),
    lambda: "a,b".find(1),
    lambda: "a,b".rfind(None, 0, "z"),
    lambda: "a,b".index(100, "b"),
    lambda: "a,b".rindex(-1, ","),
    lambda: "a,b".count(-5, "e"),
    lambda: "a,b".count(None),
    lambda: "a".endswith(-1, ("a", "b"), "X"),
    lambda: "a".startswith(-5, "ab"),
    lambda: "a".startswith(None),
    lambda: "a".startswith(("a", 1)),
    lambda: "x y".split(2, " "),
    lambda: "x y".rsplit(-5, None),
    lambda: "x y".split(None, "2"),
    lambda: "x y".split(1),
    lambda: "a\nb".splitlines("ab"),
    lambda: "a\nb".splitlines(None),
    lambda: "a\nb".splitlines(2.5),
    lambda: "a\nb".splitlines(2),
    lambda: "a\nb".splitlines(True),
    lambda: "a\nb".splitlines(keepends=0),
    lambda: "abc".replace(None, "x"),
    lambda: "abc".replace("a", None),
    lambda: "abc".replace(1, 2),
    lambda: "abc".removeprefix(None),
    lambda: "abc".removesuffix(None),
    lambda: "abc".removesuffix(3),
    lambda: "abc".find("b", None, None),
    lambda: "abc".index("c", -1),
]
for i, call in enumerate(calls):
    try:
        print(i, repr(call()))
    except (TypeError, ValueError) as e:
        print(i, repr(e))
