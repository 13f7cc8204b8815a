# A lone surrogate written as an escape in a str literal is kept, as CPython keeps it.
s = "\ud800"
print(len(s), repr(s))
t = "a\udfffb" 'c'
print(len(t), repr(t))
print(repr("\ud83d\ude00"), len("\ud83d\ude00"))
print("\ud800" == chr(0xD800), hash("\ud800") == hash(chr(0xD800)))
print(repr(("\udc80", 1)))
d = {"\ud800": 1}
print(d[chr(0xD800)])
print(repr("x\N{BULLET}\uFFFD"))
try:
    print("\ud800")
except UnicodeEncodeError as e:
    print("UnicodeEncodeError", e)
