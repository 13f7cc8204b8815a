# A comprehension reading a variable its function has not bound yet: in CPython the comprehension
# is a scope of its own, so that is a free variable's NameError; its first iterable is read in
# the function (UnboundLocalError). Found by the mutation fuzzer.
def run(keys):
    try:
        return [get(k) for k in keys]
    except NameError as e:
        print("NameError:", e)
    try:
        return [k for k in get]
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)
    get = len
    return [get(k) for k in keys]
print(run(["a", "bb"]))
def g():
    try:
        print({k: v for k, v in [(1, w)]})
    except NameError as e:
        print(isinstance(e, UnboundLocalError), e)
    w = 2
g()
