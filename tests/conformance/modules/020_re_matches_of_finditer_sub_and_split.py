# The Match objects finditer and sub's replacement function get carry the bounds the call was
# given (CPython's `m.pos` is finditer's `pos`, not where each match was searched from), and
# findall, split and a template's sub see the same groups as Match objects would.
import re

p = re.compile(r"(a)(b)?")
print([(m.pos, m.endpos, m.span(), m.groups()) for m in p.finditer("xabaab", 1, 5)])
print([(m.pos, m.endpos) for m in re.finditer("a", "xaaa")])
print(p.sub(lambda m: "[%d:%d %s]" % (m.pos, m.endpos, m.group(2)), "abaxab"))
print(p.findall("abaxab"), re.findall(r"a", "banana"), re.findall(r"(n)(x)?", "banana"))
print(p.split("1ab2a3"), re.split(r"(\d)|x", "a1bxc"), re.split(r",", "a,b,,c", 2))
print(p.sub(r"<\2|\1>", "abaxab"), p.subn(r"\g<1>\g<1>", "aab", 1), re.sub(r"(x)?y", r"[\1]", "yxy"))
it = re.compile(r"\d+").finditer("10 20 30")
print(next(it).group(), [m.group() for m in it], next(it, "done"))
m = re.search(r"(?P<w>\w+)@(?P<d>\w+)", "mail: ann@example now")
print(m.expand(r"\g<d>/\g<w>"), m.groupdict(), m.lastgroup, m.regs)

# Many matches (findall keeps no Match object per match).
text = " ".join("k%d=%d" % (i, i * 7) for i in range(100))
pairs = re.findall(r"(\w+)=(\d+)", text)
print(len(pairs), pairs[-1], sum(1 for _ in re.finditer(r"=", text[:500])))
