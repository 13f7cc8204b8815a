s = "abc"
print(s.index("b"))
print(s.index("z"))
