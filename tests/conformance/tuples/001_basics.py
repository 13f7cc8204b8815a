t = (1, "a", 2.5)
print(t, len(t), t[0], t[-1], t[1:])
print((), (1,), (1, 2), tuple())
single = 5,
print(single, isinstance(single, tuple))
print(t + (None,), (0,) * 3)
print(t.count(1), t.index("a"))
print(1 in t, "b" in t)
