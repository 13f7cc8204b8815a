# compare changed files across branches with sets
from baton import bash

def changed(ref):
    out = bash(f"git diff --name-only {ref}...HEAD").stdout
    return {line for line in out.splitlines() if line}


mine = changed("origin/main")
theirs = changed("origin/release")
both = mine & theirs
only_mine = mine - theirs
either = mine | theirs
exclusive = mine ^ theirs
tests = {p for p in either if p.startswith("tests/")}
tests.add("tests/test_smoke.py")
tests.discard("tests/old.py")
print(sorted(both), len(only_mine), len(exclusive), sorted(tests))
print(mine.issubset(either), set() == set([]))
