# The same ten million iterations as a while loop.
def run():
    total = 0
    i = 0
    while i < 10_000_000:
        total += i
        i += 1
    return total


print(run())
