# The plan library's argument errors in CPython's words (found by the mutation fuzzer over the
# difftest areas' programs, seed 97): wrap, fill and shorten pass their keywords to
# TextWrapper(...); a library function is named with its module; re checks its cache, the
# pattern and then the flags, against a RegexFlag.
import re
import shlex
import textwrap


def call(f, *args, **kwargs):
    try:
        print(repr(f(*args, **kwargs)))
    except (TypeError, ValueError) as e:
        print(repr(e))


call(textwrap.wrap, self=1)
call(textwrap.wrap, "some words here", 5, colour=1)
call(textwrap.wrap, "some words here", 5, self=1)
call(textwrap.fill, "some words here", 6, initial_indent="> ")
call(textwrap.shorten, "some words here", 9, max_lines=2)
call(textwrap.shorten, "some words here", 12, placeholder="~")
call(textwrap.wrap, *"abc", subsequent_indent="  ")
call(textwrap.wrap, "a-b c", 3, break_on_hyphens=print)
call(lambda: shlex.split(*print))
call(shlex.split, "a 'b c'", *[True])
for flags in [-0.0, "x", None, [1], 2.5, 0, re.I]:
    call(re.compile, "a", flags)
call(re.compile, re.compile("a"), re.I)
t = (1, 2)
for key in [1, 1e308, "k", None, True]:
    try:
        del t[key]
    except TypeError as e:
        print(e)
for pattern in ["[\\N]", "a\\N", "\\None"]:
    try:
        re.compile(pattern)
    except re.error as e:
        print(e)
# re.sub takes its replacement (compiled as a template) before its string.
call(re.sub, "a", 2, 1)
try:
    re.sub("a", "\\9", 1)
except re.error as e:
    print(repr(e))
call(re.subn, "a", "b", 1)
