# expect: B401
# bound .format of a hostile literal stored and called later
fmt = "{0.__class__.__base__}".format
print(fmt(1))
