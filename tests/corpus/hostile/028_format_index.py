# expect: B401
# str.format index field
print("{x[0]}".format(x=[1, 2]))
