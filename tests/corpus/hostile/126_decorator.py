# expect: B306
# decorators
from baton import log

@log
def f():
    return 1
