# expect: B205
# del of a private attribute
from baton import bash

r = bash("true")
del r._cache
