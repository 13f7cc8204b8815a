def f():
    try:
        return "try"
    finally:
        print("finally runs")
print(f())
def g():
    try:
        return "try"
    finally:
        return "finally wins"
print(g())
def h():
    try:
        raise KeyError("x")
    finally:
        return "swallowed"
print(h())
def k():
    x = 1
    try:
        return x
    finally:
        x = 2
print(k())
