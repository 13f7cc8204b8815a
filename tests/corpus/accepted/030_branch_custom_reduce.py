# branch with a plan function as reducer and explicit budget options
from baton import bash, llm, branch, log


def attempt(strategy):
    patch = llm(f"Fix the failing test using this strategy: {strategy}")
    bash("git apply -", input=patch)
    result = bash("pytest -q -x 2>&1 | tail -1")
    return {"strategy": strategy, "passed": result.returncode == 0, "size": len(patch)}


def pick(outcomes):
    good = [o for o in outcomes if o["passed"]]
    if not good:
        return None
    return min(good, key=lambda o: o["size"])


strategies = ["minimal change", "refactor helper", "add guard clause"]
chosen = branch(
    [lambda s=s: attempt(s) for s in strategies],
    reduce=pick,
    max_parallel=2,
    budget=2.5,
    adopt=True,
)
log("chosen", chosen)
