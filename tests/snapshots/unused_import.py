from baton import bash, llm, log as note

def run_tests():
    result = bash("pytest -q")
    return result.ok

print(run_tests())
