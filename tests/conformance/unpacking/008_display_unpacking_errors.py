# A `*` unpacking of a non-iterable in a list or tuple display has its own message; in a set
# display, a call or an assignment the messages differ (found by baton-difftest, seed 1212).
g5 = [(-1), 3, 10, (-5)]
for make in [lambda: [*g5, *7], lambda: (*g5, *None), lambda: [1, *3.5],
             lambda: {*7}, lambda: print(*7), lambda: (*"ab", *{1: 2}, *range(2))]:
    try:
        print(make())
    except TypeError as e:
        print("TypeError:", e)
try:
    u60, *u61 = [*g5, *((7))] or [0]
except Exception as e88:
    print((e88))
try:
    a, *b = 7
except TypeError as e:
    print(e)
