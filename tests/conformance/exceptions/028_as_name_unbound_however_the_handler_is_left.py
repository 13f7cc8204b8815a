# `except E as name` unbinds the name however the handler is left: normally, by return,
# break or continue, or by an exception (found by the mutation fuzzer, seed 89).
def f(n):
    try:
        try:
            if n == 0:
                raise KeyError("inner")
        except KeyError as e:
            return "inner handler " + (e)
    finally:
        return "outer handler " + str(e)
for n in range(2):
    try:
        print(f(n))
    except NameError as x:
        print(repr(x))
for i in range(2):
    try:
        1 / 0
    except ZeroDivisionError as err:
        break
try:
    print(err)
except NameError as x:
    print(repr(x))
def g():
    for i in range(3):
        try:
            [][i]
        except IndexError as ie:
            if i == 1:
                continue
            return ie
    return "end"
print(repr(g()))
def h():
    try:
        raise ValueError("v")
    except ValueError as ve:
        def show():
            return ve
        s = show
    try:
        return s()
    except NameError as x:
        return repr(x)
print(h())
def k():
    try:
        try:
            raise ValueError("a")
        except ValueError as e2:
            raise TypeError("b")
    except TypeError:
        pass
    try:
        e2
    except NameError as x:
        print(repr(x))
k()
