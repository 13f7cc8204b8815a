print(chr(97), chr(0x263A), ord("A"), ord("\u263a"))
print("".join(chr(c) for c in range(65, 75)))
print([ord(c) - ord("a") for c in "hello"])
def caesar(s, k):
    out = []
    for c in s:
        if c.isalpha() and c.islower():
            out.append(chr((ord(c) - 97 + k) % 26 + 97))
        else:
            out.append(c)
    return "".join(out)
print(caesar("hello, world", 3), caesar(caesar("abc xyz", 5), -5))
