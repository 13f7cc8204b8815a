# dict.pop on an empty dict answers before hashing the key, as CPython does: {}.pop([]) is a
# KeyError (or the default), while a non-empty dict hashes it (found by a fuzz of 3,000 list
# and dict method calls).
for d in [{}, {"a": 1}]:
    for key in [[4, 5], {}, "a", (1, [2])]:
        try:
            print(repr(d.pop(key, "default")))
        except TypeError as e:
            print("TypeError", e)
        try:
            print(repr(d.pop(key)))
        except (KeyError, TypeError) as e:
            print(repr(e))
    print(d)
