# four parallel attempts, validated by the test suite, best score wins
from baton import bash, llm, branch, log, inputs

task = inputs["task"]


def attempt(i):
    patch = llm(
        f"Task: {task}\nWrite a unified diff. Variant {i}.",
        temperature=0.3 + 0.1 * i,
    )
    bash("git apply -", input=patch)
    return patch


def check(patch):
    result = bash("make test 2>&1 | tail -5")
    if result.returncode != 0:
        return 0.0
    return 1.0 / (1 + len(patch.splitlines()))


outcome = branch([lambda: attempt(i) for i in range(4)], validate=check, reduce="best")
log("winner", outcome)
