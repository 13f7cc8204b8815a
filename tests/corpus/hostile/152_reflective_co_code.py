# expect: B206
# reflective attribute co_code on an arbitrary value
def probe(v):
    return v.co_code
