# int() and float() accept every Unicode decimal digit and Unicode space (CPython transforms them to ASCII first); is* predicates of non-ASCII digits.
for s in ['\x1c5', '\x855', '\u30005\u3000', '\xa05', '５', '1\u200b', '１_０', '٣.٥e٢', '\u2028inf', '١٢', '٣', '-߁', '𝟙𝟚', '\U0001FBF9', 'é', '0x１f']:
    for f in (int, float):
        try:
            print(repr(s), f(s))
        except ValueError as e:
            print(repr(s), "ValueError", e)
print(int('ff', 16), int('１ｆ' if False else '１0', 16))
for s in ["١٢", "５", "𝟙", "߁", "٣x", "\U0001FBF0"]:
    print(repr(s), s.isdecimal(), s.isdigit(), s.isnumeric(), s.isalnum(), s.isidentifier())
