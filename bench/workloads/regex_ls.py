# Regular expressions over command output: 2,000 lines of `ls -l` (100 KB) through finditer
# with groups, findall, sub and split. Not in bench/run.py's list (Baton is slower here: its re
# is written in the plan language); run it directly beside CPython (BENCHMARKS.md).
import re
lines = []
for i in range(2000):
    lines.append("-rw-r--r-- 1 user group " + str(i * 37) + " Jan " + str(i % 28 + 1) + " file" + str(i) + ".txt")
text = "\n".join(lines)
total = 0
for m in re.finditer(r"(\d+) Jan (\d+) (\S+)\.txt$", text, re.M):
    total += int(m.group(1))
print(total)
print(len(re.findall(r"\bfile\d+\b", text)))
print(len(re.sub(r"\s+", " ", text)))
print(len(re.split(r"\n", text)))
