# expect: B202
# getattr smuggled through a list element
f = [getattr][0]
print(f(1, "real"))
