# expect: B205
# single-underscore private attribute access
from baton import bash

r = bash("ls")
print(r._raw)
