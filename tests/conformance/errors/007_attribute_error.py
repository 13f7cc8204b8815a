xs = []
xs.append(1)
print(xs)
xs.foo()
