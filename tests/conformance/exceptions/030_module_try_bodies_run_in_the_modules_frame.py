# A module-level `try` body that runs once is compiled as a function of its own (Baton); it
# must behave as code of the module's frame: names it binds, tracebacks, raises that its own
# handlers catch, bare raises in handlers, nested `try`s, `def`s, comprehensions and lambdas.
import json
try:
    a = 1
    b = [x * a for x in range(3)]
    def twice(v):
        return v * 2
    c = (lambda q: twice(q) + a)(b[-1])
    print(a, b, c)
except Exception as e:
    print("not reached", e)
print("after", a, b, c, twice(5))

try:
    bound_before = "yes"
    raise IndexError("to my own handler")
    never = 1
except IndexError as e:
    print("caught", repr(e), bound_before)
try:
    print(never)
except NameError as e:
    print(repr(e))

try:
    try:
        json.loads("{")
    except ValueError as e:
        print("inner", isinstance(e, json.JSONDecodeError))
        raise
except ValueError as e:
    print("outer", isinstance(e, ValueError))

try:
    raise KeyError("first")
except KeyError:
    try:
        try:
            raise
        except KeyError as again:
            print("re-raised", repr(again))
    except Exception as e:
        print("not reached", e)

try:
    n = 0
    for i in range(5):
        try:
            if i % 2:
                raise ValueError(i)
            n += i
        except ValueError:
            n += 10
    print("loop total", n)
except Exception as e:
    print("not reached", e)
else:
    print("else runs", n)
finally:
    print("finally runs")

if n > 0:
    try:
        total = sum(int(s) for s in "1 2 3".split())
        print("total", total)
    except ValueError:
        pass

def depth(k):
    if k == 0:
        raise RuntimeError("deep")
    return depth(k - 1)
try:
    try:
        depth(3)
    finally:
        print("unwound")
except RuntimeError as e:
    print("caught", e)

try:
    x = {"k": [1, 2]}
    print(x["k"][5])
except IndexError as e:
    print("index", e)
