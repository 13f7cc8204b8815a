x = None
print(x, repr(x), str(x), x is None, x is not None)
print(x == None, [None, None])
def nothing():
    pass
def early():
    return
print(nothing(), early())
print({None: 1}[None])
d = {"a": None}
print(d.get("a"), d.get("b"), d.get("b", "dflt"))
print(None if 0 else "else")
