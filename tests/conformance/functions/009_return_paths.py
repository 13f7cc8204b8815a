def sign(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
def first_neg(xs):
    for x in xs:
        if x < 0:
            return x
    return None
print(sign(5), sign(-2), sign(0))
print(first_neg([1, -2, -3]), first_neg([1]))
def multi():
    return 1, [2], {"three": 3}
a, b, c = multi()
print(a, b, c)
