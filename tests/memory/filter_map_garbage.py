# Garbage made inside callbacks that filter and a map over two iterables call one at a time:
# each call makes 300 MB of 10 KB strs and drops them, more than the 256 MiB cap in one call.
N = 30000


def churn(v):
    total = 0
    for i in range(N):
        total += len(str(i) * 2000)
    return v + total % 7


print(list(filter(lambda v: churn(v) > 5, [4, 9])))
print(list(map(lambda a, b: churn(a) * b, [1, 2], [10, 100])))
