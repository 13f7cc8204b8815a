# Fix a failing test: run the suite, ask a model for a patch, apply it, and retry a few times.
from baton import bash, llm, inputs, log

MAX_ATTEMPTS = inputs.get("attempts", 3)


def failing_tests():
    result = bash("python -m pytest -q 2>&1 | tail -n 30", timeout=300)
    return result.ok, result.stdout


def ask_for_patch(report, previous_error):
    prompt = f"""The test suite fails with:

{report}

Reply with a unified diff that fixes the code, and nothing else."""
    if previous_error:
        prompt += f"\n\nYour previous patch did not apply: {previous_error}"
    return llm(prompt, system="You are a careful senior engineer.", temperature=0.2)


def apply_patch(diff):
    result = bash("git apply --whitespace=nowarn -", input=diff)
    if result.ok:
        return None
    return result.stderr.strip() or "git apply failed"


passed, report = failing_tests()
error = None
attempt = 0
while not passed and attempt < MAX_ATTEMPTS:
    attempt += 1
    log("attempt", attempt)
    error = apply_patch(ask_for_patch(report, error))
    if error is None:
        passed, report = failing_tests()

status = "fixed" if passed else "still failing"
print(f"{status} after {attempt} attempt(s)")
