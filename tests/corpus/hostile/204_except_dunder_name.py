# expect: B204
# a dunder except-as name
try:
    pass
except ValueError as __e__:
    pass
