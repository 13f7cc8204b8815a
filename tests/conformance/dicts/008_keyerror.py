d = {"a": 1}
try:
    print(d["b"])
except KeyError as e:
    print("KeyError", e, repr(e))
try:
    d.pop("zz")
except KeyError as e:
    print("pop", e)
try:
    del d["q"]
except LookupError as e:
    print("LookupError caught", e)
try:
    {}.popitem()
except KeyError as e:
    print("popitem", e)
try:
    print({(1, 2): 0}[(2, 1)])
except KeyError as e:
    print("tuple key", e)
