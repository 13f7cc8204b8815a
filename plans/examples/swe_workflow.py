# The mini-swe-agent workflow as a structured plan: analyse the failure, reproduce it, try
# several fixes side by side (each in its own copy of the repository, checked by the tests),
# keep the first that passes, verify it, probe an edge case, and submit the diff.
#
#   baton run plans/examples/swe_workflow.py --grant bash,llm \
#       --workspace REPO --llm script:plans/examples/swe_workflow.llm.json
#
# REPO holds `calc.sh` and `test.sh` (the tests: exit 0 when they pass); see
# tests/fixtures/calc_repo for the one the end-to-end test uses.
from baton import bash, llm, branch, log, inputs

ATTEMPTS = inputs.get("attempts", 4)
TESTS = inputs.get("tests", "./test.sh")
TARGET = inputs.get("file", "calc.sh")


def run_tests():
    return bash(TESTS + " 2>&1", timeout=120)


def analyse():
    source = bash("cat " + TARGET).stdout
    return llm(f"Analyse why the tests fail.\n\nFile {TARGET}:\n{source}", temperature=0)


def fix_attempt(number, diagnosis, report):
    # One attempt, run in a branch: its own workspace, so a wrong fix harms nothing.
    def attempt():
        fixed = llm(
            f"Fix attempt {number}. Reply with the whole corrected {TARGET}.\n\n"
            f"Diagnosis: {diagnosis}\n\nTest output:\n{report}",
            temperature=0.7,
        )
        bash(f"cat > {TARGET} && chmod +x {TARGET}", input=fixed)
        return fixed
    return attempt


def tests_pass(candidate):
    # The validator runs inside the branch, against the branch's own workspace.
    return run_tests().ok


def main():
    diagnosis = analyse()
    log("diagnosis:", diagnosis)
    before = run_tests()
    if before.ok:
        return {"status": "nothing to fix"}
    log("reproduced:", before.returncode)
    branch(
        [fix_attempt(i + 1, diagnosis, before.stdout) for i in range(ATTEMPTS)],
        validate=tests_pass,
        reduce="first_valid",
        stop_early=True,
        labels=[f"fix attempt {i + 1}" for i in range(ATTEMPTS)],
    )
    after = run_tests()
    if not after.ok:
        return {"status": "verification failed", "output": after.stdout}
    edge = bash(f"./{TARGET} add 0 0")
    diff = bash(f"diff -u /dev/null {TARGET} || true").stdout
    print("tests pass after the fix")
    return {"status": "fixed", "edge_case_ok": edge.stdout.strip() == "0", "diff_lines": len(diff.splitlines())}
