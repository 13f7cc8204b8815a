é = 1
print(é)
ﬁ = 2
print(fi)
