# Appending to a str in place must never change a str anyone else holds.
s = "ab"
kept = []
for i in range(6):
    s += str(i)
    if i % 2:
        kept.append(s)
print(s, kept)
t = ""
alias = t
for w in ["x", "y", "z"]:
    t = t + w
    alias2 = t
print(t, repr(alias), alias2)
def build(n):
    out = ""
    parts = []
    for i in range(n):
        out += "<" + str(i) + ">"
        parts.append(out)
        out += "|"
    return out, parts
print(build(3))
d = {}
k = "key"
for c in "abc":
    k += c
    d[k] = len(k)
print(d)
n = 0
n += 1
n = n + 2
lst = [1]
lst2 = lst
lst += [2]
lst = lst + [3]
print(n, lst, lst2)
def counter():
    u = "x"
    def grow():
        nonlocal u
        u += "y"
        return u
    return grow
grow = counter()
a = grow()
b = grow()
print(a, b)
v = "q"
v += 5 if False else "r"
try:
    v += 1
except TypeError as e:
    print(e)
print(v)
