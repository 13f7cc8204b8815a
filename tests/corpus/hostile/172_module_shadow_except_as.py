# expect: B202
# except ... as NAME deletes NAME at the end of the handler, re-exposing the builtin
try:
    1 / 0
except ZeroDivisionError as eval:
    pass
print(eval("1 + 1"))
