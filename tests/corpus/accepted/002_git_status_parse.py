# parse git status --porcelain into staged/unstaged/untracked lists
from baton import bash, log

lines = bash("git status --porcelain").stdout.splitlines()
staged, unstaged, untracked = [], [], []
for line in lines:
    if not line.strip():
        continue
    code, path = line[:2], line[3:].strip()
    if code == "??":
        untracked.append(path)
    elif code[0] != " ":
        staged.append(path)
    else:
        unstaged.append(path)

log("status", {"staged": staged, "unstaged": unstaged, "untracked": untracked})
print(f"{len(staged)} staged, {len(unstaged)} unstaged, {len(untracked)} untracked")
for path in sorted(untracked)[:10]:
    print("  new:", path)
