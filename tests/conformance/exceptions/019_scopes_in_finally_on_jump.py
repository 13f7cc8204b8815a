# A finally body is emitted again on every path that leaves its try (break, continue, return):
# the comprehensions, lambdas and functions inside it must still find their scopes.
li = [1, 2, 3]
for i in range(3):
    try:
        if i == 1:
            continue
        if i == 2:
            break
    finally:
        print("finally", i, [x * i for x in li], sorted({x % 2 for x in li}))


def f(n):
    try:
        return n
    finally:
        double = lambda: n * 2
        def g():
            return [double() + k for k in range(2)]
        print("returning", g(), {k: k * n for k in range(2)})


print(f(5))
for i in range(2):
    try:
        try:
            if i == 1:
                break
        finally:
            print("inner", (lambda: i)(), sorted(k for k in li))
    finally:
        print("outer", [i + k for k in li])
