# ASCII splitlines() finds line breaks eight bytes at a time (runtime/wat/str.wat,
# $str_splitlines_ascii): \r\n straddling an 8-byte boundary is one break, breaks at the first
# and last byte of a chunk, texts of every length around a multiple of 8, empty lines, a last
# line without a break, every ASCII break (\n \v \f \r \x1c \x1d \x1e) and the bytes next to
# them that are not breaks (\t \x1f and \x0e-\x1b).
for size in range(0, 18):
    for eol in ("\n", "\r\n", "\r", "\x0b", "\x1e", "\n\n", "\r\r\n"):
        text = ("y" * size + eol) * 3 + "y" * (size % 3)
        print(size, repr(eol), [len(line) for line in text.splitlines()], [len(line) for line in text.splitlines(True)])
for text in ["abcdefg\r\nhijklmn", "abcdefgh\r\n", "\r\nabcdefg\r", "a\tb\x1fc\x0ed\x1be\x0cf", "\x1c\x1d\x1e\n\x0b\x0c\r\n\r",
             "no break at all, longer than eight bytes", "", "\n", "x" * 8 + "\n" + "y" * 7 + "\r", "\r" * 9, "\r\n" * 9]:
    print(repr(text.splitlines()), repr(text.splitlines(True)), repr(text.splitlines(keepends=True)))
