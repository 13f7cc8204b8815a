# expect: B206
# Python-2 style func_globals spelling
def f():
    return 0

print(f.func_globals)
