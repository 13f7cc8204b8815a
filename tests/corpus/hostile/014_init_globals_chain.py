# expect: B205
# the classic ''.__class__.__mro__[1].__subclasses__() chain via __init__.__globals__
for c in "".__class__.__mro__[1].__subclasses__():
    g = c.__init__.__globals__
    if "sys" in g:
        print(g["sys"])
