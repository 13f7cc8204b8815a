# slicing strings and lists
from baton import bash

log_text = bash("journalctl -n 200 --no-pager || true").stdout
lines = log_text.splitlines()
tail = lines[-20:]
head = lines[:5]
every_other = lines[::2]
backwards = lines[::-1]
middle = lines[len(lines) // 4 : 3 * len(lines) // 4]
title = "baton-plan"[6:]
reversed_title = title[::-1]
shortened = [line[:80] + ("..." if len(line) > 80 else "") for line in tail]
copy = lines[:]
copy[1:3] = ["replaced"]
print(len(head), len(every_other), len(backwards), len(middle), title, reversed_title)
print("\n".join(shortened))
