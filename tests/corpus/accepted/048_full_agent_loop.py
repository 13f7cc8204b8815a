# a full coding-agent plan: reproduce, localise, patch in branches, verify, report
"""Fix a failing test end to end."""
import json
from baton import bash, llm, branch, parallel, log, inputs

TEST_CMD = inputs.get("test_cmd", "pytest -q -x")
MAX_ROUNDS = int(inputs.get("rounds", 2))


def failing_output():
    result = bash(f"{TEST_CMD} 2>&1 | tail -60", timeout=900)
    return None if result.returncode == 0 else result.stdout


def suspects(output):
    reply = llm(
        "From this test failure, list up to 3 source files that most likely contain the bug, "
        'as a JSON list of paths.\n' + output,
        temperature=0,
    )
    try:
        paths = json.loads(reply)
    except json.JSONDecodeError:
        return []
    return [p for p in paths if isinstance(p, str)][:3]


def attempt(output, path, variant):
    source = bash(f"cat {path}").stdout
    patch = llm(
        f"Failure:\n{output}\n\nFile {path}:\n{source}\n\nVariant {variant}: reply with a unified diff.",
        temperature=0.2 * variant,
    )
    if not bash("git apply -", input=patch).ok:
        return None
    return patch


def score(patch):
    if patch is None:
        return 0.0
    passed = bash(f"{TEST_CMD} >/dev/null 2>&1", timeout=900).returncode == 0
    return (1.0 if passed else 0.1) - len(patch) / 100000


output = failing_output()
rounds = 0
while output and rounds < MAX_ROUNDS:
    rounds += 1
    paths = suspects(output) or ["src/main.py"]
    jobs = [lambda p=p, v=v: attempt(output, p, v) for p in paths for v in range(2)]
    best = branch(jobs, validate=score, reduce="best", max_parallel=4)
    log("round", rounds, "paths", paths)
    output = failing_output()

summary = parallel([
    lambda: bash("git diff --stat").stdout,
    lambda: bash("git log --oneline -n 1").stdout,
])
print("fixed" if output is None else "still failing", "after", rounds, "rounds")
print(*summary, sep="\n")
