# A binary operator's result or an f-string read once by len(), print() or an f-string's field
# is freed right after (compiler/src/codegen/temporaries.rs) unless it is one of the operator's
# operands or static: every value that outlives the read must still be intact.
s = "ab"
t = (1, "x")
kept = []
for i in range(40):
    x = s * 1
    y = t + ()
    print(len(s * 1), len(s + ""), len("" + s), len(x * 0), len(y * 1), len(t * 3), len([s] * 2))
    print(x is s, y is t, f"{s * 1}|{s + ''}|{'' + s}|{x * 2}|{s * 0}|{y * 1}", s, x, y)
    print(f"{i * 10**15}", f"{i + 0.5}", f"{i / 4}", f"{s * 3!r}", f"{s * 2:>8}|{i * 3:05d}|", len(f"{s}{i}"))
    kept.append(f"{s * 2}-{i}")
    kept.append(s * 2)
    print(s * 2, "".join(s for _ in range(2)), f"v={s + str(i)}", 2.5 * i, i * 1000003)
    big = str(i) * 3000
    print(len(big + big), len(big * 1), big[:3], len(f"{big}{big * 2}"), big[-2:])
    # Past the largest size class (28 KiB): a large object, whose chunks are given back.
    print(len(big * 20), len(f"{big * 12}|{i}"), f"{big * 15}"[-3:], len(big))
print(s, t, x, y, kept[:4], kept[-2:], len(kept), sum(len(k) for k in kept))
# A reader that raises frees nothing: the exception may hold the value.
try:
    print(len(3 * 4))
except TypeError as e:
    print(e)
d = {}
try:
    d[s * 2]
except KeyError as e:
    print(repr(e), e.args[0] * 1)
x = 1.5
print(f"{x * 1}", f"{x + 0}", x, len(f"{x * 2}"), 2**62 - 1 + 0)
