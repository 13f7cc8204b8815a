def msg(f):
    try:
        f()
    except Exception as e:
        return repr(e) + " | " + str(e)
print(msg(lambda: 1 / 0))
print(msg(lambda: 1 // 0))
print(msg(lambda: 1 % 0))
print(msg(lambda: 1.0 / 0))
print(msg(lambda: [][0]))
print(msg(lambda: {}["k"]))
print(msg(lambda: int("abc")))
print(msg(lambda: 1 + "a"))
print(msg(lambda: "a" * "b"))
print(msg(lambda: [].foo))
print(msg(lambda: float("x")))
print(msg(lambda: (1, 2)[5]))
print(msg(lambda: "abc".index("z")))
