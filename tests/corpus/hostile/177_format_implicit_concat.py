# expect: B401
# implicit concatenation of literals forms an attribute field
print(("{0." "__class__}").format(1))
