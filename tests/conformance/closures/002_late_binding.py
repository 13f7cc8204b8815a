fs = []
for i in range(3):
    fs.append(lambda: i)
print([f() for f in fs])
gs = [lambda: j for j in range(3)]
print([g() for g in gs])
hs = [lambda j=j: j for j in range(3)]
print([h() for h in hs])
def make():
    out = []
    for k in range(3):
        def f():
            return k * 10
        out.append(f)
    k = 99
    return out
print([f() for f in make()])
