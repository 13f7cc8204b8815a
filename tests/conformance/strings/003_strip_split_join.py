s = "  padded  \n"
print(repr(s.strip()), repr(s.lstrip()), repr(s.rstrip()))
print("xxabcxx".strip("x"), "xyhixy".strip("yx"))
print("a,b,,c".split(","), "a b  c".split(), " a b ".split(" "))
print("a,b,c,d".split(",", 2), "a,b,c,d".rsplit(",", 2))
print("line1\nline2\r\nline3".splitlines())
print("-".join(["a", "b", "c"]), "".join(["x", "y"]), ", ".join([]))
print("k=v=w".partition("="), "k=v=w".rpartition("="), "abc".partition("z"))
