# expect-any: B001, B005
# iterable unpacking in a comprehension element
print([*a for a in [[1]]])
