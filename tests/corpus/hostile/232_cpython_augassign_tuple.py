# expect-any: B001, B005
# augmented assignment to a tuple
a, b = 1, 2
a, b += 1
