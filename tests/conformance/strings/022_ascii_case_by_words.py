# upper() and lower() of ASCII text go eight bytes at a time: every alignment, every byte
# value, the letters' neighbours ('@', '[', '`', '{'), and a tail shorter than a word.
chars = "".join([chr(c) for c in range(128)])
s = chars * 3
for k in range(0, 40):
    t = s[k:k + 50]
    assert t.upper() == "".join([c.upper() for c in t]), t
    assert t.lower() == "".join([c.lower() for c in t]), t
print(s.upper()[32:128])
print(s.lower()[32:128])
print("Hello World, 123 @[`{ ZzAa".upper(), "Hello World, 123 @[`{ ZzAa".lower())
print(("abcdefghijklmnopqrstuvwxyz" * 4).upper())
print(("ABCDEFGHIJKLMNOPQRSTUVWXYZ@[" * 3).lower())
x = "ab" * 50000
print(len(x.upper()), x.upper()[:6], x.upper().lower() == x)
