# closures that keep running totals with nonlocal
from baton import bash, log


def make_tracker():
    passed = 0
    failed = 0

    def record(ok):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
        return passed, failed

    def summary():
        total = passed + failed
        return f"{passed}/{total} passed"

    return record, summary


record, summary = make_tracker()
for target in ["lint", "typecheck", "test"]:
    result = bash(f"make {target}")
    record(result.returncode == 0)
log(summary())
