# a work queue processed with while, pop and append
from baton import bash, llm, log

queue = ["src"]
seen = set()
summaries = {}
while queue:
    path = queue.pop(0)
    if path in seen:
        continue
    seen.add(path)
    listing = bash(f"ls -p {path} 2>/dev/null || true").stdout.split()
    for entry in listing:
        if entry.endswith("/"):
            queue.append(path + "/" + entry.rstrip("/"))
        elif entry.endswith(".py") and len(summaries) < 5:
            summaries[f"{path}/{entry}"] = llm(f"One line summary of {entry}", max_tokens=40)
log("visited", len(seen))
for name, text in summaries.items():
    print(name, "-", text.strip())
