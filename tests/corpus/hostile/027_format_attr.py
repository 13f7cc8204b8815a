# expect: B401
# str.format attribute field walks the object graph
print("{0.__class__}".format(1))
