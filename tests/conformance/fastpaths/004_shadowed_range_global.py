# A module-level `range` replaces the builtin everywhere in the plan.
def range(a, b=None):
    return ["mine", a, b]


def use():
    return [x for x in range(2)]


for x in range(3):
    print(x)
print(use())
