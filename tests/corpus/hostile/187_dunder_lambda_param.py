# expect: B204
# a dunder lambda parameter
f = lambda __x__: __x__
print(f(1))
