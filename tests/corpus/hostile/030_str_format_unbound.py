# expect: B401
# str.format called unbound on a literal
print(str.format("{0.__class__}", 1))
