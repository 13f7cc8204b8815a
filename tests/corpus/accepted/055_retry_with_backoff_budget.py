# retry a flaky command with a counted budget and nested helpers
from baton import bash, log


def retry(command, attempts=3, *, on_fail=None):
    history = []
    for n in range(1, attempts + 1):
        result = bash(command, timeout=30 * n)
        history.append((n, result.returncode))
        if result.ok:
            return result.stdout, history
        if on_fail is not None:
            on_fail(n, result)
    return None, history


def report(n, result):
    log("attempt failed", n, result.returncode, result.stderr.splitlines()[-1:] or [""])


out, history = retry("curl -fsS http://localhost:8080/health", attempts=4, on_fail=report)
print("healthy" if out is not None else "unhealthy", history)
