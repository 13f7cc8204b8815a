s = "abcdef"
print(s[2], s[-2], s[:3], s[3:], s[::2], s[::-1])
print(list(s), tuple("xy"))
print(sorted("banana"), "".join(sorted("banana")))
print(list(enumerate("ab")))
print(max("hello"), min("hello"))
print(s.index("d"), [c for c in s if c in "aeiou"])
