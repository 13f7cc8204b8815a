def total(*nums):
    print(type_name(nums), len(nums))
    return sum(nums)
def type_name(v):
    return "tuple" if isinstance(v, tuple) else "other"
print(total(), total(1), total(1, 2, 3))
def head_tail(first, *rest):
    return first, rest
print(head_tail(1), head_tail(1, 2, 3))
def mixed(a, *args, key="k", **kwargs):
    return a, args, key, kwargs
print(mixed(1))
print(mixed(1, 2, 3, key="z", x=1, y=2))
