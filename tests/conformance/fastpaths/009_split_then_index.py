# s.split()[i] and s.split(sep)[i] with a literal i pick one piece without making the list
# (runtime/wat/fast.wat, $fast_split_at): every piece, every miss and every other receiver as
# the generic split and subscript give them.
texts = [
    "", " ", "a", " a ", "a b", "  lead", "trail  ", "a\tb\nc\x0bd\x0ce\rf\x1cg\x1dh\x1ei\x1fj k",
    "-rw-r--r-- 1 dev staff  4096 Jan  3 12:00 notes.txt", "key=value=more", "=x=", "a,,b,",
    ",", ",,", "no separators here", "x", "héllo wörld ünïcode", "tab\tseparated\tfields",
]
for t in texts:
    row = []
    for i in range(6):
        try:
            row.append(t.split()[0] if i == 0 else t.split()[1] if i == 1 else t.split()[2] if i == 2
                       else t.split()[4] if i == 3 else t.split()[-1] if i == 4 else t.split(None)[1])
        except IndexError as e:
            row.append("IndexError: " + str(e))
    for sep in (",", "=", " ", "\t", "é"):
        for getter in (lambda s: s.split(sep)[0], lambda s: s.split(sep)[1],
                       lambda s: s.split(sep)[3], lambda s: s.split(sep)[-1]):
            try:
                row.append(getter(t))
            except IndexError as e:
                row.append("IndexError: " + str(e))
    print(repr(t), row)

# The piece is a str equal to the generic one; one-character pieces too.
line = "a bb ccc"
print(line.split()[0] == "a", line.split()[2] is not None, isinstance(line.split()[1], str))

# Other receivers and separators go the generic way, errors included.
for bad in (["a b"], 5, None):
    try:
        print(bad.split()[0])
    except AttributeError as e:
        print("AttributeError:", e)
try:
    print("a b".split("")[0])
except ValueError as e:
    print("ValueError:", e)
try:
    print("a b".split(1)[0])
except TypeError as e:
    print("TypeError:", e)
print("a--b--c".split("--")[1], "a--b--c".split("--")[-1])

parts = {"split": lambda sep=None: ["custom", sep]}
print(parts["split"]()[0], parts["split"](",")[1])

# Evaluation order: the receiver, then the separator.
order = []


def recv():
    order.append("recv")
    return "p:q"


def sep():
    order.append("sep")
    return ":"


print(recv().split(sep())[1], order)

# In a loop over lines, as plans parse command output.
out = "\n".join(f"-rw-r--r-- 1 dev staff {i * 37 % 1000:>5} Jan  3 12:00 f{i}.txt" for i in range(50))
print(sum(int(r.split()[4]) for r in out.splitlines()), [r.split()[-1] for r in out.splitlines()][:3])

# Words across the eight-byte chunks the scan reads: every length and position.
pickers = [lambda s: s.split()[0], lambda s: s.split()[1], lambda s: s.split()[2],
           lambda s: s.split()[3], lambda s: s.split()[5], lambda s: s.split()[8],
           lambda s: s.split()[-1], lambda s: s.split(" ")[2], lambda s: s.split("w")[-1]]
checksum = 0
shown = []
for n in range(120):
    s = " " * (n % 4) + (" " * (1 + n % 2)).join(
        "w" * ((i * 7 + n) % 13 + 1) + str(i) for i in range(n % 10)) + "\t" * (n % 3)
    for pick in pickers:
        try:
            piece = pick(s)
        except IndexError:
            piece = "!"
        checksum = (checksum * 131 + len(piece) * 7 + sum(map(ord, piece))) % 1000000007
        if n % 17 == 0:
            shown.append(piece)
print(checksum, shown)
