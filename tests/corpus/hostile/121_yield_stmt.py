# expect: B303
# generator function via yield
def gen():
    yield 1
