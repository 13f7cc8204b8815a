def depth(n):
    if n == 0:
        return 0
    return 1 + depth(n - 1)
print(depth(500))
def sum_list(xs):
    if not xs:
        return 0
    return xs[0] + sum_list(xs[1:])
print(sum_list(list(range(200))))
