# expect: B104
# star import from json
from json import *

print(loads("1"))
