s = {"a"}
s.remove("a")
print(len(s))
s.remove("a")
