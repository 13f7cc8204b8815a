# parse linter output into a dict of files to messages, fix file by file
from baton import bash, llm, log

out = bash("ruff check --output-format=concise . || true").stdout
problems = {}
for line in out.splitlines():
    parts = line.split(":", 3)
    if len(parts) != 4:
        continue
    path, row, col, message = parts
    problems.setdefault(path, []).append((int(row), int(col), message.strip()))

fixed = 0
for path, items in sorted(problems.items()):
    listing = "\n".join(f"{r}:{c} {m}" for r, c, m in items)
    source = bash(f"cat {path}").stdout
    patch = llm(f"Fix these lint errors in {path}:\n{listing}\n\n{source}\nReply with a diff.")
    if bash("git apply -", input=patch).ok:
        fixed += 1
    else:
        log("could not apply", path)

print(f"fixed {fixed} of {len(problems)} files")
