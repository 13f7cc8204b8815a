# A counted integer loop of ten million iterations.
def run():
    total = 0
    for i in range(10_000_000):
        total += i
    return total


print(run())
