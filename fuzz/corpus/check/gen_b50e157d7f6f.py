class A:
    pareversed
def f():
    yield 1

async with open('x') as fh:
    pass
match x:
    case 1:
        pass
try:
    pass
except* ValueError:
    pass
b = b'bytes'
c = 0j
d = ...
