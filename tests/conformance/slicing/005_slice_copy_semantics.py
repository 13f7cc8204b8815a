a = [[1], [2], [3]]
b = a[:]
b[0] = "new"
b[1].append(20)
print(a, b)
s = "abc"
print(s[:] == s, s[0:0] == "")
c = a[::-1]
c[0].append(30)
print(a)
