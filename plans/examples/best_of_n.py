# Best of four: four branches each try a fix in their own copy of the workspace; the one whose
# tests pass with the fewest changed lines wins, and its changes are adopted.
from baton import bash, llm, branch, inputs
import json

TASK = inputs.get("task", "Make the failing test in tests/test_parser.py pass.")


def attempt(style):
    def run():
        diff = llm(f"{TASK}\nApproach: {style}\nReply with a unified diff only.", temperature=0.8)
        applied = bash("git apply -", input=diff)
        return {"applied": applied.ok, "diff": diff}

    return run


def score(result):
    if not result["applied"]:
        return 0.0
    tests = bash("python -m pytest -q", timeout=300)
    if not tests.ok:
        return 0.1
    changed = len([line for line in result["diff"].splitlines() if line.startswith(("+", "-"))])
    return 1.0 + 1.0 / (1 + changed)


styles = ["minimal change", "fix the root cause", "add a guard clause", "rewrite the function"]
best = branch([attempt(style) for style in styles], validate=score, reduce="best")
print(json.dumps({"applied": best["applied"], "diff_lines": len(best["diff"].splitlines())}))
