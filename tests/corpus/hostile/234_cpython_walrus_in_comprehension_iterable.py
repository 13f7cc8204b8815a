# expect-any: B001, B005
# a walrus in a comprehension's iterable expression
print([x for x in (y := [1])])
