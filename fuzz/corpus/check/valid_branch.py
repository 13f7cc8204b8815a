from baton import bash, llm, branch, parallel, log

def attempt(i):
    def run():
        patch = llm(f"attempt {i}: write a patch", temperature=0.2 * i)
        bash("git apply -", input=patch)
        return bash("make test").returncode
    return run

outcome = branch([attempt(i) for i in range(4)], validate=lambda code: code == 0, reduce="first_valid")
sizes = parallel([lambda: len("a"), lambda: len("bb")])
log(outcome, sizes)
