# expect: B206
# reflective attribute tb_frame on an arbitrary value
def probe(v):
    return v.tb_frame
