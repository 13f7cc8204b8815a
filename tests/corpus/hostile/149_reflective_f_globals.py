# expect: B206
# reflective attribute f_globals on an arbitrary value
def probe(v):
    return v.f_globals
