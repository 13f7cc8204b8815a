from baton import bash

def run_tests():
    result = bash("pytest -q")
    return result.ok

print(run_tests())
