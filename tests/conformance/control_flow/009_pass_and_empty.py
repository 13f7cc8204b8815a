def noop():
    pass
for _ in range(3):
    pass
if True:
    pass
else:
    pass
print(noop())
count = 0
while count < 5:
    count += 1
print(count)
