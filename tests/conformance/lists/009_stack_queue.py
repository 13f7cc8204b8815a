stack = []
for i in range(4):
    stack.append(i)
out = []
while stack:
    out.append(stack.pop())
print(out)
queue = ["a", "b", "c"]
seen = []
while queue:
    item = queue.pop(0)
    seen.append(item)
    if item == "a":
        queue.append("d")
print(seen)
