# ASCII split() finds words eight bytes at a time (runtime/wat/str.wat, $str_split_ascii): words
# and whitespace runs that start, end or straddle an 8-byte boundary, texts whose length is and
# is not a multiple of 8, control bytes below space that are not whitespace, and maxsplit
# reached inside a chunk and at a chunk's edge.
for size in range(0, 26):
    for gap in (1, 2, 7, 8, 9):
        text = ("x" * size + " " * gap) * 3
        print(size, gap, text.split() == ["x" * size] * (3 if size else 0), repr(text.split(None, 1)[-1:]))
for text in ["abcdefgh", "abcdefgh ", " abcdefgh", "abcdefg h", "abcdefghi", "a" * 16, "a" * 15 + " b",
             "\x00\x01\x02\x03\x04\x05\x06\x07\x08", "\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b !",
             "a\tb\nc\x0bd\x0ce\rf\x1cg\x1dh\x1ei\x1fj k", "\x7f\x7e \x21\x20\x22"]:
    print(repr(text.split()))
    for m in range(0, 5):
        print(" ", m, repr(text.split(None, m)))
line = "-rw-r--r--  1 user  staff   123456 Jan  3 10:05 file_1.txt  "
print([line[: n].split() for n in range(0, len(line) + 1, 7)])
print([line.split(maxsplit=m)[-1] for m in range(0, 11)])
