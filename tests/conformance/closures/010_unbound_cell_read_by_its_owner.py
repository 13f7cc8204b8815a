# A variable captured by an inner function is a cell of the function that owns it. Read there
# before it is bound, it is that function's local (UnboundLocalError); read by the closure, a
# free variable (NameError). Found by the mutation fuzzer (seed 59).
def outer():
    def read():
        return x
    try:
        read()
    except UnboundLocalError as e:
        print("wrong class", e)
    except NameError as e:
        print("NameError:", e)
    try:
        print(x)
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)
    x = 1
    print([x + i for i in range(2)], read())
    del x
    try:
        print(x)
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)


def augmented():
    def bump():
        nonlocal x
        x = 5
        return 1
    try:
        x += bump()
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)


outer()
augmented()
