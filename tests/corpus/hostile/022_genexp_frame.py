# expect: B206
# a generator expression's gi_frame (the genexp itself is allowed syntax)
g = (x for x in [])
print(g.gi_frame.f_back.f_globals)
