# expect: B401
# str.format_map called unbound on a literal template
print(str.format_map("{x.__class__}", {"x": 1}))
