# Values a statement holds while a later part of it calls a plan function: each call below
# may collect (its entry is a safe point), so every earlier operand must stay alive.
def word(n):
    junk = [str(i) * 3 for i in range(50)]
    return "w" + str(n) + str(len(junk))

def pair(n):
    return [n, word(n)]

print(word(1) + word(2))
print(pair(1) + pair(2))
print([word(3), word(4)], (word(5), word(6)))
print({word(7): word(8), word(9): pair(10)})
print({word(11), word(12)} == {word(12), word(11)})
print(word(13)[1:len(word(14))])
print(word(15) in [word(15), word(16)])
print(word(17) < word(18) < word(19))
d = {}
d[word(20)] = word(21)
print(d)
xs = [word(22)]
xs += [word(23)]
print(xs)
s = word(24)
s += word(25)
print(s)
print(f"{word(26)}-{pair(27)}-{word(28)!r}")
print("%s %s" % (word(29), word(30)))
print(dict(a=word(31), b=word(32)), sorted([word(34), word(33)], key=lambda w: (len(w), w)))
print(*[word(35), word(36)], sep=word(37))
print(max(word(38), word(39)), [w.upper() for w in [word(40), word(41)]])
print({k: word(k) for k in range(42, 44)}, [word(k) for k in range(44, 46) if word(k)])
try:
    raise ValueError(word(46)) from KeyError(word(47))
except ValueError as e:
    print(e)
def collector(*args, **kwargs):
    return [list(args), sorted(kwargs.items())]
print(collector(word(48), *[word(49)], k=word(50), **{"z": word(51)}))
print(word(52).replace(word(52)[1:], word(53)), word(54).split(word(54)[1]))
def idx(n):
    junk = [str(i) * 3 for i in range(50)]
    return n
slots = [None, None]
slots[idx(0)], slots[idx(1)] = (word(k) for k in (55, 56))
print(slots)
