# An augmented assignment's TypeError names the augmented operator (`//=`, not `//`); errors
# raised while evaluating its operands keep their own operator (found by baton-difftest).
def plus_error():
    try:
        return 1 + "a"
    except TypeError as e:
        return str(e)

t = (1, 2)
try:
    t //= 1
except TypeError as e:
    print(e)
try:
    t -= 1
except TypeError as e:
    print(e)
d = {"k": None}
try:
    d["k"] += 1
except TypeError as e:
    print(e)
x = []
x += [plus_error()]
print(x)
try:
    n = 5
    n -= "5"
except TypeError as e:
    print(e)
try:
    n = 1
    n += 1
    print(n, 2 + None)
except TypeError as e:
    print(e)
try:
    s = {1}
    s |= [2]
except TypeError as e:
    print(e)
try:
    q = 1
    q /= 0
except ZeroDivisionError as e:
    print(e)
try:
    print(3 * None)
except TypeError as e:
    print(e)
t2 = (1,)
t2 *= "x"
