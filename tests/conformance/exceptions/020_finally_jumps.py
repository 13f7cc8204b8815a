def f():
    try:
        return "try"
    finally:
        print("finally runs")

def g():
    for i in range(5):
        try:
            if i == 1:
                continue
            if i == 3:
                break
            print("body", i)
        finally:
            print("fin", i)
    return "done"

def h():
    try:
        try:
            return 1
        finally:
            print("inner")
    finally:
        print("outer")

def k():
    try:
        return "a"
    finally:
        return "b"

def m():
    try:
        raise ValueError("x")
    finally:
        return "swallowed"

def once():
    count = [0]
    def inner():
        try:
            return 1
        finally:
            count[0] += 1
            if count[0] == 1:
                raise KeyError("from finally")
    try:
        inner()
    except KeyError as e:
        print("caught", e, "finally ran", count[0], "time(s)")

print(f())
print(g())
print(h())
print(k())
print(m())
once()
