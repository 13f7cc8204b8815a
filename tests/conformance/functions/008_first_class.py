def apply(f, *args):
    return f(*args)
def compose(f, g):
    return lambda x: f(g(x))
inc = lambda x: x + 1
dbl = lambda x: x * 2
print(apply(inc, 5), apply(max, 3, 8, 1))
print(compose(inc, dbl)(5), compose(dbl, inc)(5))
ops = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b}
for name in ["add", "mul"]:
    print(name, ops[name](6, 7))
funcs = [len, str.upper, sorted]
print([f("cab") for f in funcs])
