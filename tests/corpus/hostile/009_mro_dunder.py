# expect: B205
# walk __mro__ to object
base = (1).__class__.__mro__[-1]
print(base)
