# expect: B204
# the __debug__ constant
print(__debug__)
