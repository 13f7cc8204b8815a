# star-unpacking in assignments, displays and calls
from baton import bash, log

lines = bash("git log --format=%H%x09%an%x09%s -n 5").stdout.splitlines()
head, *older = lines
sha, author, *subject = head.split("\t")
first, second, *_ = [1, 2, 3, 4]
combined = [*older, head]
defaults = {"retries": 2, "model": "small"}
overrides = {"model": "large"}
settings = {**defaults, **overrides, "verbose": True}
pair = (*range(2), 9)
log(*pair)
print(sha[:8], author, " ".join(subject), len(combined), settings, first + second)
