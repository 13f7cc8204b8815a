# run the tests, ask a model for a patch, apply it, retry until green
from baton import bash, llm, log

MAX_ATTEMPTS = 3


def run_tests():
    result = bash("python -m pytest -q 2>&1 | tail -40", timeout=300)
    return result.returncode == 0, result.stdout


ok, output = run_tests()
attempt = 0
while not ok and attempt < MAX_ATTEMPTS:
    attempt += 1
    log("attempt", attempt)
    diff = bash("git diff").stdout
    patch = llm(
        f"The tests fail with:\n{output}\n\nCurrent diff:\n{diff}\n"
        "Reply with a unified diff only.",
        temperature=0.2,
    )
    applied = bash("git apply --whitespace=fix -", input=patch)
    if not applied.ok:
        log("patch did not apply", applied.stderr)
        continue
    ok, output = run_tests()
else:
    if ok:
        print("tests pass after", attempt, "attempts")
    else:
        print("giving up")
