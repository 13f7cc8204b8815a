class A:
    pass

@dec
def f():
    yield 1

async def g():
    await f()

global q
with open('x') as fh:
    pass
match x:
    case 1:
        pass
try:
    pass
except* ValueError:
    pass
b = b'bytes'
c = 1j
d = ...
