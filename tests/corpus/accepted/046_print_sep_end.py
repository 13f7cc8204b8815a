# print with sep and end keywords
from baton import bash

rows = [line.split() for line in bash("df -h | head -5").stdout.splitlines()]
for row in rows:
    print(*row[:3], sep="\t", end="\n")
print("progress", end=": ")
for i in range(3):
    print(i, end=" ")
print()
print("a", "b", "c", sep="")
