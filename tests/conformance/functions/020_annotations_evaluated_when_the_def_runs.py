# Annotations are evaluated when the def runs (after the defaults, in CPython's order) and at
# module level after the assignment; in a function body they are not.
def trace(label, value=None):
    print("evaluated", label)
    return value


def f(a: trace("a") = trace("default a"), *args: trace("args"), k: trace("k") = trace("default k"), **kw: trace("kw")) -> trace("return"):
    local: trace("never, in a function") = 1
    return local


print(f())
x: trace("module x") = trace("value x")
y: trace("module y")
try:
    def g(b: defined_later = 2):
        pass
except NameError as e:
    print(e)
try:
    z: also_defined_later = 5
except NameError as e:
    print(e, z)
defined_later = also_defined_later = int
