# One exception raised again many times (`raise e`, each time caught): its traceback grows in
# CPython by each raise; Baton's stops growing at the recursion limit's bound, and the raises
# stay as cheap as the first.
def check(n):
    if n % 7 == 3:
        raise ValueError(n)
    return n


saved = None
for i in range(10):
    try:
        check(i)
    except ValueError as e:
        saved = e

caught = 0
for i in range(3000):
    try:
        raise saved
    except ValueError as e:
        caught += 1
        if i % 1000 == 0:
            print(i, e.args, e is saved)


def relay(depth):
    if depth == 0:
        raise saved
    relay(depth - 1)


for depth in (1, 50, 400):
    try:
        relay(depth)
    except ValueError as e:
        caught += 1
print(caught, str(saved))
