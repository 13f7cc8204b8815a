from baton import bash, llm, branch, parallel, log

def attempt(i):
    def run():
        patch = llm(f"attempt {i}: write a patch", temperature=0.2 * i)
        bash("git apply -", input=patch)
        return bash("m