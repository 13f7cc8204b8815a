# expect: B308
# except* (exception groups)
try:
    pass
except* ValueError:
    pass
