# `del sorted` at module level: the global is unbound (the name reads as the builtin), so
# deleting it is a NameError (found by the mutation fuzzer, seed 73).
try:
    del sorted
except NameError as e:
    print(e)
def f():
    try:
        del len
    except NameError as e:
        print(isinstance(e, UnboundLocalError), e)
f()
x = 1
del x
try:
    del x
except NameError as e:
    print(e)
print(sorted([2, 1]))
