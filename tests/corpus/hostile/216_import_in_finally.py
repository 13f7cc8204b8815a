# expect: B101
# from-import inside a finally block
try:
    pass
finally:
    from os import path
