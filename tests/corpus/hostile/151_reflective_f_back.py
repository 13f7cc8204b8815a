# expect: B206
# reflective attribute f_back on an arbitrary value
def probe(v):
    return v.f_back
