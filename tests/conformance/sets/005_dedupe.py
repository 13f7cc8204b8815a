items = [3, 1, 3, 2, 1, 5, 2]
seen = set()
uniq = []
for x in items:
    if x not in seen:
        seen.add(x)
        uniq.append(x)
print(uniq)
print(sorted(set(items)), len(set(items)))
print(len({1, 1.0, True}), len({0, False, 0.0, ""}))
print({1, 2} == {2, 1}, {1} == {1.0})
