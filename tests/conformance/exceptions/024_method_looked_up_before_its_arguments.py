# A method call looks the method up before it evaluates the arguments, as CPython does: a call
# that cannot happen runs none of its arguments (in a plan they may be commands or model calls).
calls = []


def effect(tag):
    calls.append(tag)
    return tag


def attempt(label, thunk):
    try:
        thunk()
        print(label, "ran", calls)
    except AttributeError as e:
        print(label, "AttributeError:", e, calls)
    except TypeError as e:
        print(label, "TypeError:", e, calls)
    calls.clear()


attempt("list", lambda: [1].nope(effect("a")))
attempt("list fast", lambda: (5).append(effect("b")))
attempt("str fast", lambda: [1].strip(effect("c")))
attempt("dict fast", lambda: "s".get(effect("d")))
attempt("split item", lambda: [1].split(effect("e"))[0])
attempt("star", lambda: [1].nope(*1))
attempt("keyword", lambda: {}.nope(key=effect("f")))
attempt("type", lambda: str.nope(effect("g")))
attempt("int", lambda: (3).nope(effect("h"), effect("i")))
attempt("float", lambda: (2.5).is_integer(effect("j")))
attempt("range", lambda: range(3).index(effect(1)))
attempt("good", lambda: [1].append(effect("k")))
attempt("good str", lambda: "a,b".split(effect(",")))
attempt("good type", lambda: str.upper(effect("l")))
attempt("good dict", lambda: {"m": 1}.get(effect("m")))
attempt("good none args", lambda: "x".upper())
