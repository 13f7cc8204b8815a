# expect: B205
# __context__ / __cause__ on exceptions
try:
    1 / 0
except ZeroDivisionError as e:
    print(e.__context__, e.__cause__)
