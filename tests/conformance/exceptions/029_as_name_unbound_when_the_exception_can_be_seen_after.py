# `except E as name` left by an exception: the name is unbound wherever code could look at it
# afterwards. Baton skips the unbinding where nothing can (no enclosing `try` in the same
# function, or no read of the name outside the handler); these are the places something can.
def closure_made_in_the_handler():
    try:
        raise ValueError("v")
    except ValueError as e:
        global keep
        keep = lambda: e
        raise KeyError("k")
try:
    closure_made_in_the_handler()
except KeyError:
    pass
try:
    print(keep())
except NameError as x:
    print("closure:", repr(x))

def global_bound_by_a_handler():
    global g
    try:
        raise ValueError("v")
    except ValueError as g:
        raise KeyError("k")
try:
    global_bound_by_a_handler()
except KeyError:
    pass
try:
    print(g)
except NameError as x:
    print("global:", repr(x))

def read_by_an_enclosing_handler():
    try:
        try:
            raise ValueError("v")
        except ValueError as inner:
            raise KeyError("k")
    except KeyError:
        try:
            return inner
        except NameError as x:
            return "local: " + repr(x)
print(read_by_an_enclosing_handler())

def read_in_a_finally():
    try:
        try:
            raise ValueError("v")
        except ValueError as fe:
            raise KeyError("k")
        finally:
            try:
                print(fe)
            except NameError as x:
                print("finally:", repr(x))
    except KeyError:
        pass
read_in_a_finally()

def read_only_in_the_handler(n):
    try:
        try:
            raise ValueError(n)
        except ValueError as only:
            print("handler sees", only)
            raise KeyError(n)
    except KeyError as k:
        return "caught " + repr(k)
print(read_only_in_the_handler(3))

# Module level: a nested handler's name read after the outer handler caught the exception.
try:
    try:
        raise ValueError("v")
    except ValueError as m:
        print("inner handler", m)
        raise KeyError("k")
except KeyError:
    try:
        print(m)
    except NameError as x:
        print("module:", repr(x))

# Module level: read in a `finally` of the same statement.
try:
    try:
        raise ValueError("v")
    except ValueError as mf:
        raise KeyError("k")
    finally:
        try:
            print(mf)
        except NameError as x:
            print("module finally:", repr(x))
except KeyError:
    pass

# Module level, in a loop: the next round's read.
for i in range(2):
    try:
        if i == 1:
            print(ml)
        try:
            raise ValueError(i)
        except ValueError as ml:
            raise KeyError(i)
    except KeyError:
        pass
    except NameError as x:
        print("loop:", repr(x))

# Read by a function called after the exception was caught.
def show_h():
    return h
try:
    try:
        raise ValueError("v")
    except ValueError as h:
        raise KeyError("k")
except KeyError:
    try:
        print(show_h())
    except NameError as x:
        print("function:", repr(x))

# `del` and `+=` outside the handler look too.
try:
    try:
        raise ValueError("v")
    except ValueError as d:
        raise KeyError("k")
except KeyError:
    try:
        del d
    except NameError as x:
        print("del:", repr(x))
try:
    try:
        raise ValueError("v")
    except ValueError as a:
        raise KeyError("k")
except KeyError:
    try:
        a += 1
    except NameError as x:
        print("augmented:", repr(x))
