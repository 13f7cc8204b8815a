# expect: B206
# reflective attribute gi_frame on an arbitrary value
def probe(v):
    return v.gi_frame
