# A plan's own `range` must be called, not the builtin.
def local_range():
    def range(n):
        return ["local", n]

    out = []
    for x in range(2):
        out.append(x)
    return out


def param_range(range):
    return [x for x in range(3)]


def rebinds():
    total = 0
    for x in range(3):
        total += x
    return total


print(local_range(), param_range(lambda n: "abc"[:n]), rebinds())
