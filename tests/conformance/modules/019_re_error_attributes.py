# re.error carries msg, pattern, pos, lineno and colno as CPython's does: the position in a
# one-line pattern, the line and column (also in the message) in a pattern of several lines,
# and None for all but msg where no position is known.
import re


def show(pattern):
    try:
        re.compile(pattern)
    except re.error as e:
        print(repr(str(e)))
        print(repr(e.msg), repr(e.pattern), e.pos, e.lineno, e.colno)
        print(e.args == (str(e),))


show("a(b")
show("ab)")
show("x{3,1}")
show("*a")
show("[b-a]")
show("first\nsecond(")
show("one\ntwo\n  [z-a]")
show("(?<=a+)b")
show(r"\8")
try:
    re.sub("a", r"x\g<1", "a")
except re.error as e:
    print(repr(str(e)))
    print(repr(e.msg), repr(e.pattern), e.pos, e.lineno, e.colno)
