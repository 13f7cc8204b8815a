# re: matching and searching, groups of every kind, and what a match object says.
import re

m = re.match(r"(\w+) (\w+)", "Isaac Newton, physicist")
print(m)
print(m.group(0), "|", m.group(1), "|", m.group(2), "|", m.group(1, 2))
print(m.groups(), m.span(), m.span(2), m.start(1), m.end(1))
print(m.string, m.pos, m.endpos, m.lastindex, m.lastgroup)

m = re.search(r"(?P<first>\w+) (?P<last>\w+)", "name: Malcolm Reynolds")
print(m.groupdict(), m.group("last"), m.lastgroup, m.re.pattern)

print(re.match(r"(a)(b)?", "ac").groups(), re.match(r"(a)(b)?", "ac").groups("-"))
print(re.fullmatch(r"\d+", "123"), re.fullmatch(r"\d+", "123a"))
print(re.match(r"a|ab", "ab"), re.fullmatch(r"a|ab", "ab"))
print(re.search(r"^\d+$", "12\n34"), re.search(r"(?m)^\d+$", "12\n34"))
print(re.search(r"a.c", "a\nc"), re.search(r"a.c", "a\nc", re.S))
print(re.search(r"HELLO", "say hello", re.I))
print(re.search(r"\bcat\b", "concat cat"), re.search(r"\Bcat", "concat cat"))
print(re.search(r"(\w)\1", "abccd"), re.search(r"(?P<c>\w)(?P=c)", "xyyz"))
print(re.search(r"(?<=-)\w+", "spam-egg"), re.search(r"(?<!-)\b\w+$", "a-b c"))
print(re.search(r"\w+(?=,)", "one, two"), re.search(r"\d+(?!px)\b", "12px 34em"))
print(re.match(r"(a*)*b", "aab").groups(), re.match(r"(?:(a)|b)+", "ab").groups())
print(re.match(r"(a)?(?(1)b|c)", "ab"), re.match(r"(a)?(?(1)b|c)", "c"))
print(re.match(r"a*?b", "aaab"), re.match(r"<.*?>", "<a><b>"), re.match(r"<.*>", "<a><b>"))
print(re.match(r"(?>a+)ab", "aaab"), re.match(r"a++b", "aaab"))
print(re.match(r"(?x) \d+  # digits\n  \s* (kb|mb)", "12 mb").groups())
print(re.match(r"\d{2,3}", "12345"), re.match(r"\d{2,3}?", "12345"), re.match(r"x{,2}", "xxx"))

p = re.compile(r"(\d+)-(\d+)")
print(p, p.pattern, p.groups, p.groupindex, p.flags == re.UNICODE)
print(p.search("range 10-20"), p.match("range 10-20"), p.match("range 10-20", 6))
print(p.search("1-2 3-4", 1, 5))
print(re.compile("a", re.I | re.M), re.compile("a", re.I).flags & re.I != 0)
print(isinstance(p, re.Pattern), isinstance(p.search("1-2"), re.Match))
print(re.compile(p) is p)
if re.search(r"error", "no problems"):
    print("found")
else:
    print("not found")
m = re.search(r"(?P<k>\w+)=(?P<v>\w+)", "a=1")
print(m[0], m[1], m["v"])
