# iter(callable, sentinel): calls until the sentinel, then exhausted for good; lazy in consumers
# (list, a comprehension, sum, map).
items = [3, 1, 4, 0, 5]
pos = [0]
def take():
    pos[0] += 1
    return items[pos[0] - 1]
it = iter(take, 0)
print(list(it), next(it, "done"), pos)
lines = iter(["a", "b", "", "c"])
print([line for line in iter(lambda: next(lines), "")])
counter = iter(range(10))
print(sum(iter(lambda: next(counter), 5)))
print(list(map(str, iter(lambda: 7, 7))), isinstance(iter(lambda: 0, 1), list))
try:
    iter(5, 0)
except TypeError as e:
    print(repr(e))
