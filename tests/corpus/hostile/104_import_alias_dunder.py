# expect: B204
# an allowed import bound to a dunder alias
from baton import bash as __import__

__import__("ls")
