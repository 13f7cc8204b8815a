# expect: B103
# from . import x
from . import x

print(x)
