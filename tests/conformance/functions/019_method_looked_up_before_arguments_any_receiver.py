# A method call looks the method up before its arguments are evaluated, whatever the receiver.
import re
def f():
    print("f ran")
    return 1
def g():
    pass
m = re.match("a", "a")
for receiver in [g, None, len, iter([1]), {1: 2}.values(), {1: 2}.keys(), m, ValueError("x"), zip()]:
    try:
        receiver.nope(f())
    except AttributeError as e:
        print(e)
    try:
        receiver.nope(**[])
    except (AttributeError, TypeError) as e:
        print(e)
print({1: 2}.keys().isdisjoint([f()]))
print(m.group(f() - 1))
