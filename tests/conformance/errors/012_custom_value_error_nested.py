def level3(x):
    if x < 0:
        raise ValueError('bad')
    return x
def level2(x):
    return level3(x - 5) * 2
def level1(x):
    return level2(x) + 1
print(level1(10))
print(level1(1))
