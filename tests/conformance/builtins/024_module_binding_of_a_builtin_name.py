# A module-level binding of a builtin's name is the builtin until it is bound.
print(max([3, 1, 2]), sum([1, 2, 3]), len("abc"))


def helper():
    return max([5, 9])


print(helper())
if False:
    sum = 0
print(sum([4, 5]))


def max(values):
    return "my max of " + str(values)


print(max([3, 1, 2]), helper())
sorted = lambda xs: "shadowed"
print(sorted([2, 1]))
del sorted
print(sorted([2, 1]))
print = print
print("print rebound to itself")
