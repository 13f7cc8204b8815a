# expect-any: B001, B005
# duplicate lambda parameter names
f = lambda a, a: a
