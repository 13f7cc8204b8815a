# A keys or items view combined with & | ^ - takes any iterable and refuses anything else with
# TypeError, whatever the other operand's value (a negative int once read memory out of bounds).
d = {"a": 1, "b": 2}
for other in [-1, -3, 0, 5, 2.5, None, True, [("a", 1)], ["a", "z"], "ab", {"a": 9}.keys()]:
    for name, op in [("&", lambda x, y: x & y), ("|", lambda x, y: x | y),
                     ("^", lambda x, y: x ^ y), ("-", lambda x, y: x - y)]:
        for view in [d.keys(), d.items()]:
            try:
                print(name, sorted(op(view, other), key=repr))
            except TypeError as e:
                print(name, "TypeError:", e)
            try:
                print(name, sorted(op(other, view), key=repr))
            except TypeError as e:
                print(name, "TypeError:", e)
