# list, dict, set and generator comprehensions over command output
from baton import bash

out = bash("grep -rn TODO src || true").stdout
hits = [line.split(":", 2) for line in out.splitlines() if line.count(":") >= 2]
by_file = {}
for path, lineno, text in hits:
    by_file.setdefault(path, []).append(int(lineno))

counts = {path: len(lines) for path, lines in by_file.items()}
dirs = {path.rsplit("/", 1)[0] for path in by_file}
total = sum(n for n in counts.values())
worst = sorted(counts.items(), key=lambda kv: kv[1], reverse=True)[:3]
grid = [[i * j for j in range(3)] for i in range(3)]
flat = [x for row in grid for x in row if x % 2 == 0]
print(total, len(dirs), worst, flat)
print(any(n > 10 for n in counts.values()), all(n > 0 for n in counts.values()))
