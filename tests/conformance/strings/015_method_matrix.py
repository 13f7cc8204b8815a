# str methods over edge inputs: split/rsplit/splitlines/strip/join/replace/find family with ranges/affixes/case/is* predicates/partition/pad/expandtabs/removeprefix and their errors.
def t(f):
    try:
        print(repr(f()))
    except Exception as e:
        print("ERR", repr(e))
S = ["", " ", "a b  c ", "  a\tb\nc\x0bd\x0ce\rf\x1cg\x1dh\x1ei\x85j\u2028k\u3000l\xa0m  ", "a,b,,c,", ",", "abc"]
for s in S:
    t(lambda: s.split())
    t(lambda: s.rsplit())
    t(lambda: s.split(None, 1))
    t(lambda: s.rsplit(None, 1))
    t(lambda: s.split(","))
    t(lambda: s.rsplit(",", 1))
    t(lambda: s.split(",", 0))
    t(lambda: s.split(",", -1))
    t(lambda: s.split(" ", 2))
    t(lambda: s.rsplit(" ", 2))
    t(lambda: s.split(maxsplit=1))
    t(lambda: s.split(sep=",", maxsplit=1))
t(lambda: "abc".split(""))
t(lambda: "abc".split(1))
t(lambda: "a--b--c".split("--"))
t(lambda: "a--b--c".rsplit("--", 1))
t(lambda: "aaa".split("aa"))
t(lambda: "aaa".rsplit("aa"))
for s in ["", "a\nb", "a\nb\n", "a\r\nb\rc\n\nd\x0be\x0cf\x1cg\x1dh\x1ei\x85j\u2028k\u2029l", "\n", "\r\n\r\n", "abc"]:
    print(s.splitlines(), s.splitlines(True), s.splitlines(keepends=True))
for s in ["  xx  ", "\t\n x \x0b\x0c\r\x1c\x85\u3000\xa0", "xyxhixyx", ""]:
    print(repr(s.strip()), repr(s.lstrip()), repr(s.rstrip()), repr(s.strip("xy")), repr(s.lstrip("x")), repr(s.rstrip("yx ")), repr(s.strip(None)), repr(s.strip("")))
t(lambda: "x".strip(1))
t(lambda: ",".join(["a", 1]))
t(lambda: ",".join("abc"))
t(lambda: ",".join(("a", "b")))
t(lambda: ",".join({"a": 1, "b": 2}))
t(lambda: ",".join(5))
t(lambda: ",".join([]))
for s in ["aaaa", "abcabc", ""]:
    print(s.replace("a", "x"), s.replace("a", "x", 1), s.replace("a", "x", 0), s.replace("a", "x", -1), s.replace("", "-"), s.replace("", "-", 2), s.replace("bc", ""))
s = "hello world hello"
for args in [("l",), ("l", 3), ("l", -5), ("l", 3, 5), ("l", -100, 100), ("l", 100), ("", 0), ("", 17), ("", 18), ("", 5, 3), ("xyz",), ("hello", 1), ("o", None, 5), ("o", 2, None), ("", -1)]:
    print(args, s.find(*args), s.rfind(*args), s.count(*args))
    t(lambda: s.index(*args))
    t(lambda: s.rindex(*args))
t(lambda: s.find(1))
t(lambda: s.count())
for args in [("he",), (("x", "he"),), ("lo", 3), ("lo", 3, 5), ("he", -5), ("", 17), ("", 18), (("",),), ((),)]:
    print(args, s.startswith(*args), s.endswith(*args))
t(lambda: s.startswith(["a"]))
t(lambda: s.startswith(("a", 1)))
t(lambda: s.endswith(1))
for s in ["hello WORLD", "ß straße", "İstanbul", "àéîõü ÀÉÎÕÜ", "hello-world 3rd o'neil", "µ", "ÿ", "aBc123_xY", "", "123abc"]:
    print(s.lower(), s.upper(), s.title(), s.capitalize(), s.swapcase(), s.casefold())
for s in ["", "abc", "ABC", "Abc", "123", "½", "²", "١٢", "a1", " ", "\t\n", "\x1c", "\xa0", "Hello World", "Hello world", "HELLO", "hello", "a_b", "_a", "1a", "a-b", "é", "ñ1", "\x7f", "\u200b", "abc\n", "∞", "é", "ß", "A1", "A B", "1", "ª", "a "]:
    print(repr(s), s.isdigit(), s.isalpha(), s.isalnum(), s.isspace(), s.isupper(), s.islower(), s.istitle(), s.isdecimal(), s.isnumeric(), s.isidentifier(), s.isprintable(), s.isascii())
for s in ["a=b=c", "abc", "=", ""]:
    print(s.partition("="), s.rpartition("="))
t(lambda: "a".partition(""))
t(lambda: "a".rpartition(""))
for s in ["42", "-42", "+42", "", "abc", "-", "é"]:
    print(s.zfill(5), s.zfill(0), s.zfill(-1), "|" + s.center(6) + "|", "|" + s.center(7, "é") + "|", s.ljust(4, "*"), s.rjust(4, "-"), s.center(1))
t(lambda: "a".center(5, "ab"))
t(lambda: "a".center(5, ""))
t(lambda: "a".ljust("5"))
for s in ["a\tb", "\tab\tc", "abcdefgh\tx", "a\nb\tc", "a\r\tb", "", "ü\tx"]:
    print(repr(s.expandtabs()), repr(s.expandtabs(4)), repr(s.expandtabs(0)), repr(s.expandtabs(-1)), repr(s.expandtabs(1)))
print("prefix_x".removeprefix("prefix_"), "x".removeprefix(""), "x_suf".removesuffix("_suf"), "x".removesuffix("y"), "aa".removesuffix("aa"))
t(lambda: "a".removeprefix(1))
t(lambda: "a".upper(1))
t(lambda: "a".nosuch())
t(lambda: "abc"[5])
k = "x"
t(lambda: "abc"[k])
t(lambda: "a" + 1)
t(lambda: 1 + "a")
t(lambda: "a" * "b")
t(lambda: "a" < 1)
t(lambda: "abc".index("z"))
t(lambda: "a %s" % (1, 2))
t(lambda: "a %s %s" % (1,))
t(lambda: "%d" % "x")
