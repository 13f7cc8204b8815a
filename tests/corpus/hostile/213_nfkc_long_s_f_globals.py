# expect: B206
# f_globalſ NFKC-normalises to f_globals
def f(fr):
    return fr.f_globalſ
