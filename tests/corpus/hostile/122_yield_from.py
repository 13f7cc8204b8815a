# expect: B303
# yield from
def gen():
    yield from [1, 2]
