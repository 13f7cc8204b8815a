for i in range(5):
    pass
print(i)
for ch in "xyz":
    last = ch
print(ch, last)
for k in []:
    pass
j = 100
for j in range(2):
    j += 10
print(j)
