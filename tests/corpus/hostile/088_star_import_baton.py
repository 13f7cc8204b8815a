# expect: B104
# star import from the SDK
from baton import *

bash("ls")
