# re: invalid patterns raise re.error with CPython's message and position; wrong types raise
# TypeError; a missing group is an IndexError.
import re

for pattern in ["(a", "a)", "[a", "*a", "a**", "a{2,1}", "\\", "a\\", "\\q", "[b-a]",
                "(?P<1>a)", "(?P<n>a)(?P<n>b)", "(?P=n)", "\\2(a)", "(?<=a+)b", "(?z)",
                "a(?i)", "[\\d-z]", "(?(2)a|b)", "x{1,2}{3}", "(?", "(?P", "a\nb(", "\\x4"]:
    try:
        re.compile(pattern)
        print(repr(pattern), "compiles")
    except re.error as e:
        print(repr(pattern), "->", e)

try:
    re.compile("(abc")
except re.error as e:
    print(isinstance(e, re.error), isinstance(e, Exception), repr(e))

for call in [lambda: re.search(1, "a"), lambda: re.search("a", 1), lambda: re.sub("a", 1, "a"),
             lambda: re.match("(a)", "a").group(2), lambda: re.match("(a)", "a").group("x"),
             lambda: re.sub("(a)", r"\2", "a"), lambda: re.sub("a", r"\g<x>", "a"),
             lambda: re.compile(re.compile("a"), re.I)]:
    try:
        print(call())
    except (TypeError, IndexError, ValueError, re.error) as e:
        print(repr(e))

