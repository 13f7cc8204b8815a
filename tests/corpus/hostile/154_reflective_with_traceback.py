# expect: B206
# reflective attribute with_traceback on an arbitrary value
def probe(v):
    return v.with_traceback
