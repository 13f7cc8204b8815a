# Assigning a non-iterable to a slice: "can only assign an iterable" for a step of 1 (or None),
# "must assign iterable to extended slice" for any other step, as CPython (found by a fuzz of
# 4,500 slicing operations).
for step in [None, 1, 2, -1, -10]:
    x = [0, 1, 2, 3, 4, 5]
    try:
        x[1:4:step] = 5
    except TypeError as e:
        print(step, "TypeError", e)
    try:
        x[::step] = None
    except TypeError as e:
        print(step, "TypeError", e)
    x[1:3:step] = [] if step in (None, 1) else x[1:3:step]
    print(step, x)
