s = "hello"
print(s, len(s), s[0], s[-1], s[1:3])
print(s + " world", s * 2, "-" * 10)
print("ell" in s, "xyz" not in s, "" in s)
print(s == "hello", s < "help", "a" < "B", "Z" < "a")
print("abc" < "abd", "ab" < "abc", "" < "a")
for ch in "abc":
    print(ch, end=" ")
print()
