# assignment expressions in conditions and comprehensions
from baton import bash, llm

if (count := len(bash("git diff --name-only").stdout.splitlines())) > 20:
    print(f"large change: {count} files")

budget = 5
while (budget := budget - 1) > 0:
    if (reply := llm("Reply DONE if finished").strip()) == "DONE":
        break
    print("not yet:", reply[:40])

sizes = [s for line in bash("wc -l src/*.py").stdout.splitlines() if (s := line.split()[0]).isdigit()]
print(sizes)
