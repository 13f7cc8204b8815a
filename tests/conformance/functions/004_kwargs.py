def show(**kw):
    for k in kw:
        print(k, "=", kw[k])
    return len(kw)
print(show(b=2, a=1, c=3))
print(show())
def config(name, **opts):
    opts.setdefault("verbose", False)
    return name, opts
print(config("x", debug=True))
print(config(name="y"))
