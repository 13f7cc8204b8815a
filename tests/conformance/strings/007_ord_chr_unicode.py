print(ord("a"), ord("Z"), ord("0"), ord("\n"), ord("\u00e9"), ord("\u20ac"))
print(chr(65), chr(97), chr(8364), chr(0x1F600) == "\U0001F600")
s = "h\u00e9llo \u20ac"
print(s, len(s), s.upper())
print("".join(chr(ord(c) + 1) for c in "HAL"))
print([ord(c) for c in "abc"])
print("\u00e9" < "z", "\u00e9" > "e")
