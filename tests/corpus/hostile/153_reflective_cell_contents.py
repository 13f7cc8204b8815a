# expect: B206
# reflective attribute cell_contents on an arbitrary value
def probe(v):
    return v.cell_contents
