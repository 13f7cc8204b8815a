# Reads of a local skip the unbound test only where every path has assigned it
# (compiler/src/codegen/definite.rs). Each function here reads a local that some path leaves
# unbound: a comprehension's variable of the same name, one branch of an if, a loop that runs
# zero times, a try body left by an exception, a break through finally, a del or an
# `except ... as` in a loop, a walrus in a short-circuit or an empty comprehension, a deleted
# parameter, a def's name read before it runs; and the paths that do assign.
def attempt(f, *args):
    try:
        print(f(*args))
    except NameError as e:
        print("Unbound" if isinstance(e, UnboundLocalError) else "NameError", e)

def comp_then_read():
    ys = [x for x in range(3)]
    print(ys, x)
    x = 1

def branch(c):
    if c:
        y = 1
    return y

def both(c):
    if c:
        y = 1
    else:
        y = 2
    return y

def loop_zero(n):
    for i in range(n):
        z = i
    return z

def while_zero(n):
    while n > 0:
        w = n
        n -= 1
    return w

def try_body(c):
    try:
        if c:
            raise ValueError
        v = 1
    except ValueError:
        return v
    return v

def finally_path(c):
    for k in range(2):
        try:
            if c:
                break
            u = 5
        finally:
            print("fin")
    return u

def deleted_in_loop():
    q = 1
    for i in range(2):
        print(q)
        del q

def except_as_loop():
    e = 3
    for i in range(2):
        print(e)
        try:
            raise KeyError(i)
        except KeyError as e:
            pass

def walrus(c):
    if c and (m := 5):
        pass
    return m

def walrus_comp(xs):
    r = [(t := x) for x in xs]
    return t

def param_del(p):
    print(p)
    del p
    return p

def nested_def():
    def g():
        return h
    r = g
    h = 2
    return r()

def while_else(n):
    while n > 0:
        n -= 1
        s = 1
    else:
        pass
    return s

def for_else_break(xs):
    for x in xs:
        a = x
        break
    else:
        return "none"
    return a

def try_else(c):
    try:
        pass
    except ValueError:
        b = 1
    else:
        b = 2
    return b

def handler_type():
    try:
        errs = ValueError
        raise KeyError
    except KeyError:
        return "key"

for f, args in [(comp_then_read, ()), (branch, (0,)), (branch, (1,)), (both, (0,)), (loop_zero, (0,)), (loop_zero, (2,)),
                (while_zero, (0,)), (try_body, (1,)), (try_body, (0,)), (finally_path, (1,)), (finally_path, (0,)),
                (deleted_in_loop, ()), (except_as_loop, ()), (walrus, (0,)), (walrus, (1,)), (walrus_comp, ([],)),
                (walrus_comp, ([4],)), (param_del, (7,)), (nested_def, ()), (while_else, (0,)), (while_else, (2,)),
                (for_else_break, ([],)), (for_else_break, ([9],)), (try_else, (0,)), (handler_type, ())]:
    attempt(f, *args)
