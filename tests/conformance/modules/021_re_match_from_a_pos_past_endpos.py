# match() from a pos past its endpos runs the pattern there, as CPython's does: what needs no
# character matches empty ((?!x), an optional group, \b between a word and the end), what needs
# one fails, and so does a repeat of one character even with none required (x*, x*?, (?:x)*);
# search() and fullmatch() find nothing. Found by the differential tester (area re).
import re

patterns = ["", "x*", "x*?", "(?:x)*", "(x)*", "(?!x)", "(a)?", r"\b", r"\B", "(?<=c)", "(?<!x)",
            "(?m)$", "$", "^", ".*", "a|", "(?=a)|b*", r"\w*", "(?i)C*", "x{0,2}?"]
for p in patterns:
    c = re.compile(p)
    found = []
    for pos, end in [(3, 1), (5, 0), (0, 5)]:
        m = c.match("abcde", pos, end)
        found.append(None if m is None else (m.span(), m.pos, m.endpos))
        found.append((c.search("abcde", pos, end), c.fullmatch("abcde", pos, end)) == (None, None))
    print(repr(p), found)
print(re.compile("(?![A-Z\\]]Abc)").match("a.a c_2Bb.a", 2, 1))
