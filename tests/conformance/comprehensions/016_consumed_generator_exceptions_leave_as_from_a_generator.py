# A generator expression a builtin consumes whole runs inline (Baton); what its code raises
# leaves as from a generator: a StopIteration becomes RuntimeError, anything else passes as it
# is, with the generator's frame gone however many times it happens.
xs = [3, 1, 0, 2]
try:
    print(sum(6 // x for x in xs))
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    print(max(len(s) for s in ["ab", 7]))
except TypeError as e:
    print("TypeError:", e)
try:
    print(",".join(str(x).upper() for x in xs if x.bit_length() > {}))
except TypeError as e:
    print("TypeError:", e)

# A StopIteration from code the generator calls: a plan function, next(), a builtin name the
# plan rebinds, a method the expression cannot vouch for.
it = iter([])
def stop(x):
    raise StopIteration(x)
for label, make in [
    ("function", lambda: sum(stop(x) for x in xs)),
    ("next", lambda: any(next(it) for x in xs)),
    ("sorted key", lambda: min(sorted(xs, key=stop) for x in xs)),
    ("map inside", lambda: all(list(map(stop, [x])) == [] for x in xs)),
]:
    try:
        print(label, make())
    except RuntimeError as e:
        print(label, "RuntimeError:", e)
    except StopIteration as e:
        print(label, "StopIteration leaked", e)

def shadowed():
    len = stop
    return sum(len(x) for x in xs)
try:
    shadowed()
except RuntimeError as e:
    print("rebound builtin: RuntimeError:", e)

# Many escapes, each caught: nothing of the generator's frame stays behind.
caught = 0
for i in range(3000):
    try:
        sum(1 // (x - x) for x in xs)
    except ZeroDivisionError:
        caught += 1
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print("caught", caught, "then recursion still reaches", depth(900))
