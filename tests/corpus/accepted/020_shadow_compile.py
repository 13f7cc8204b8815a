# a nested plan function named compile shadows the builtin
from baton import bash, log


def build_all(targets):
    def compile(target, *, jobs=4):
        result = bash(f"make -j{jobs} {target}", timeout=600)
        return result.returncode == 0, result.stderr

    failures = []
    for target in targets:
        ok, errors = compile(target)
        if not ok:
            failures.append((target, errors.splitlines()[-5:]))
    return failures


failures = build_all(["lib", "cli", "docs"])
log("failures", failures)
print("all built" if not failures else f"{len(failures)} targets failed")
