x = None
print(x)
print(x[0])
