# expect-any: B001, B005
# a walrus rebinding a comprehension iteration variable
print([i := 0 for i in range(3)])
