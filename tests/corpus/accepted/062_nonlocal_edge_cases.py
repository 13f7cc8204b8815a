# nonlocal bound after the nested def, nonlocal of a parameter of the enclosing function
from baton import bash


def counter_after_def():
    def bump():
        nonlocal count
        count += 1
        return count

    count = 0
    bump()
    bump()
    return count


def limiter(limit):
    def take(n):
        nonlocal limit
        granted = min(n, limit)
        limit -= granted
        return granted

    return take


take = limiter(10)
print(counter_after_def(), take(4), take(8), take(3))
print(bash("true").ok)
