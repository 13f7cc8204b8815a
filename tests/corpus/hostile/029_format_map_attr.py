# expect: B401
# format_map with a reflective attribute field
g = (i for i in [1])
print("{g.gi_frame}".format_map({"g": g}))
