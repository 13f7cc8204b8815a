# expect-any: B001, B005
# an unparenthesized generator expression beside another argument
print(x for x in [1], 2)
