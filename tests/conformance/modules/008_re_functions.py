# re: findall, finditer, sub, subn, split and escape, with CPython's empty-match rules.
import re

print(re.findall(r"\d+", "a1 b22 c333"))
print(re.findall(r"(\w)=(\d)", "a=1, b=2"), re.findall(r"(\w)=\d", "a=1, b=2"))
print(re.findall(r"(a)|b", "ab"), re.findall(r"", "ab"), re.findall(r"x*", "axb"))
print([m.span() for m in re.finditer(r"a*", "baac")])
print([m.group() for m in re.finditer(r"\w+", "to be or not")])

print(re.sub(r"\s+", " ", "a   b \n c"))
print(re.sub(r"(\w+)@(\w+)", r"\2 at \1", "joe@host"))
print(re.sub(r"(?P<n>\d+)", r"<\g<n>>", "a1b22"), re.sub(r"(\d)", r"\g<1>0", "a1"))
print(re.sub(r"x*", "-", "abxd"), re.sub(r"", "-", "abc"))
print(re.sub(r"\d", lambda m: str(int(m.group()) * 2), "a1b2c3"))
print(re.sub(r"a", "b", "aaa", count=2), re.subn(r"a", "b", "aaa"))
print(re.sub(r"(a)|b", r"[\1]", "ab"), re.sub(r"a", r"\n", "xa") == "x\n")
print(re.sub(r"a", r"\\", "a"), re.sub(r"a", "\\.", "a"))

print(re.split(r"[,;]\s*", "a, b;c,  d"))
print(re.split(r"(,)", "a,b,c"), re.split(r",", "a,b,c", maxsplit=1))
print(re.split(r"\b", "a b"), re.split(r"x*", "axbc"), re.split(r"(x)?,", "a,bx,c"))
print(re.split(r"\s+", "  lead and trail  "))

print(re.escape("a.b*c?(d)"), re.escape("1 + 1 = 2"), re.escape("path/to_file-1"))
print(re.search(re.escape("1+1"), "is 1+1 = 2?"))

text = """\
FAILED tests/test_a.py::test_one - AssertionError
PASSED tests/test_a.py::test_two
FAILED tests/test_b.py::test_three - KeyError: 'x'
"""
for m in re.finditer(r"^FAILED (\S+)::(\w+) - (\w+)", text, re.M):
    print(m.group(2), "in", m.group(1), "raised", m.group(3))
counts = {}
for word in re.findall(r"[a-z]+", "the cat and the hat and the bat"):
    counts[word] = counts.get(word, 0) + 1
print(sorted(counts.items()))
