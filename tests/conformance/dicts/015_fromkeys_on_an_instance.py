# fromkeys is a class method: called on an instance it ignores the instance, as in CPython.
d = {"x": 1}
print(d.fromkeys("ab"), d.fromkeys([1, 2], 0), dict.fromkeys(range(3), []), d)
for bad in [(), (5,), ("ab", 1, 2)]:
    try:
        print(d.fromkeys(*bad))
    except TypeError as e:
        print("TypeError", e)
