# expect: B401
# attribute field hidden in a nested format spec
print("{0:{1.__class__}}".format(1, 2))
