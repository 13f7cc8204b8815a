# expect: B206
# reflective attribute mro on an arbitrary value
def probe(v):
    return v.mro
