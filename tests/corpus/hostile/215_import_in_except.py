# expect: B101
# import inside an except handler
try:
    pass
except ValueError:
    import os
