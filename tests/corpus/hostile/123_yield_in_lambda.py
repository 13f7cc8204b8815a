# expect: B303
# yield inside a lambda
f = lambda: (yield)
