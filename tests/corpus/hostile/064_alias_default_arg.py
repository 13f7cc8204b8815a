# expect: B202
# getattr captured as a parameter default
def f(x, g=getattr):
    return g(x, "real")

print(f(1))
