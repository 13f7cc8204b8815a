# expect-any: B001, B005
# a bare except clause that is not last
try:
    pass
except:
    pass
except ValueError:
    pass
