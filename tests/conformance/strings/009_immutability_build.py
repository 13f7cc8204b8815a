parts = []
for i in range(5):
    parts.append(str(i))
print("".join(parts))
s = ""
for i in range(5):
    s += str(i * i)
print(s)
t = s
s += "!"
print(t, s)
words = "the quick brown fox".split()
print(" ".join(w[::-1] for w in words))
print(" ".join(w.capitalize() for w in words))
