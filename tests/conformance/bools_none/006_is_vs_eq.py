a = [1, 2]
b = [1, 2]
c = a
print(a == b, a is b, a is c, a is not b)
c.append(3)
print(a, b)
print(None is None, True is not False)
print([] == [], {} == {}, () == ())
print((1, 2) == (1, 2), [1, 2] == (1, 2))
print("ab" == "a" + "b")
