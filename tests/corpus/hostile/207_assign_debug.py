# expect: B204
# assignment to __debug__
__debug__ = 1
