# review several files concurrently and merge the comments
from baton import bash, llm, parallel

files = [f for f in bash("git diff --name-only HEAD~1").stdout.splitlines() if f.endswith(".py")]


def review(path):
    source = bash(f"cat {path}").stdout
    return path, llm(f"Review {path} for bugs. Be brief.\n\n{source}", max_tokens=400)


reviews = parallel([lambda p=p: review(p) for p in files], max_parallel=4)
for path, comments in reviews:
    print(f"== {path} ==")
    print(comments.strip())
