# expect: B204
# a dunder keyword argument name
from baton import log

log("x", __sink__=1)
