# iter(callable, sentinel) ends, for good, when the callable raises StopIteration, as when it
# returns the sentinel (CPython's callable_iterator). Found by the mutation fuzzer (seed 59).
lines = iter(["a", "b", "", "c"])
print([line for line in iter(lambda: next(lines), "")])
print([line for line in iter(lambda: next(lines), "")])
it = iter(lambda: next(lines), "")
print(list(it), list(it))

count = [0]


def step():
    count[0] += 1
    if count[0] > 3:
        raise StopIteration
    return count[0]


calls = iter(step, None)
print(next(calls), list(calls), next(calls, "done"), count[0])


def fails():
    raise ValueError("not a stop")


try:
    list(iter(fails, None))
except ValueError as e:
    print("ValueError:", e)
