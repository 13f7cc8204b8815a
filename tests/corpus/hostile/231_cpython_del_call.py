# expect-any: B001, B005
# del of a call expression
del print()
