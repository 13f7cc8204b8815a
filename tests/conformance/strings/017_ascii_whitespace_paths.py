# split(), strip() and splitlines() scan ASCII text byte by byte and other text by code point
# (runtime/wat/str.wat); both must agree with CPython on every whitespace and line-break class.
ws = " \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"
for text in [ws + "a" + ws + "bc" + ws, "a\x1fb\x1cc d", "\x85a\xa0b\u3000c", "é " + ws + " ü", "", ws]:
    print(repr(text.split()), repr(text.split(None, 1)), repr(text.rsplit(None, 1)))
    print(repr(text.strip()), repr(text.lstrip()), repr(text.rstrip()), repr(text.strip("\t ")))
    print(repr(text.splitlines()), repr(text.splitlines(True)))
print("x\r\ny\rz\n\x0bw\x0c\x1c\x1d\x1ev\x1f".splitlines(True))
print("x\r\ny\u2028z\x85".splitlines())
print([line.split() for line in "  total 4\n-rw-r--r-- 1 user  staff  5 Jan  1 10:00 a.txt  \n".splitlines()])
words = " \t".join("abcdefghijklmnopqrstuvwxyz0123456789!#$%&"[: n] for n in range(1, 42))
print(words.split() == [w for w in words.split(" \t")], [len(w) for w in words.split()], words.split()[-1])
print("  a  bc d  ".split(None, 1), "a b c".split(maxsplit=0), "\x1fx\x1fy".split())
for text in ["", "\n", "\n\n", "a\r\nb\r\n", "a\rb\r", "\r\n\r\n", "x\x1c\x1d\x1ey", "tail", "a\n\rb", "\r"]:
    print(repr(text.splitlines()), repr(text.splitlines(True)), len(text.splitlines()))
