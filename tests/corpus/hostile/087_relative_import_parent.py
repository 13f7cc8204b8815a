# expect: B103
# from .. import y
from .. import y

print(y)
