for i in range(5):
    try:
        if i == 1:
            continue
        if i == 3:
            break
        print("body", i)
    finally:
        print("finally", i)
print("after loop")
def f():
    for i in range(3):
        try:
            raise ValueError(i)
        finally:
            break
    return "break in finally discards exception"
print(f())
def g():
    out = []
    for i in range(3):
        try:
            out.append(i)
        finally:
            if i == 1:
                continue
            out.append(-i)
    return out
print(g())
