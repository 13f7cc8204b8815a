# expect: B401
# attribute field followed by a conversion and spec
print("value: {0.real!r:>10}".format(3))
