# Repair a broken script, the way an agent would: set up a small project in the workspace, run
# its test, ask a model for a fix, apply it, and run the test again. Every effect goes through
# the SDK: `bash` runs in the OS sandbox inside the run's workspace, `llm` goes to the provider
# (offline here: the script provider answers from repair.llm.json).
#
#   baton run plans/examples/repair.py --grant bash,llm --llm script:plans/examples/repair.llm.json
from baton import bash, llm, log

GREET = """#!/bin/bash
# Greets each name given on the command line.
for name in "$@"; do
  echo "Helo, $name!"
done
"""

TEST = """#!/bin/bash
# The project's test: exit 0 when greet.sh greets correctly.
expected=$'Hello, Ada!\\nHello, Linus!'
actual=$(./greet.sh Ada Linus)
if [ "$actual" == "$expected" ]; then
  echo "PASS"
else
  echo "FAIL: expected:"; echo "$expected"; echo "got:"; echo "$actual"
  exit 1
fi
"""


def run_tests():
    result = bash("./test.sh", timeout=10)
    log("test.sh exited with", result.returncode)
    return result


def main(attempts=2):
    bash("cat > greet.sh && chmod +x greet.sh", input=GREET)
    bash("cat > test.sh && chmod +x test.sh", input=TEST)
    print(f"workspace: {bash('ls').stdout.split()}")

    result = run_tests()
    print(f"before: {result.stdout.splitlines()[0]}")
    for attempt in range(1, attempts + 1):
        if result.ok:
            break
        source = bash("cat greet.sh").stdout
        fixed = llm(
            f"Fix the script so the test passes. Reply with the whole script only.\n"
            f"--- greet.sh\n{source}--- test output\n{result.output}",
            system="You repair shell scripts.",
            max_tokens=400,
        )
        bash("cat > greet.sh", input=fixed)
        result = run_tests()
        print(f"attempt {attempt}: {result.stdout.splitlines()[0]}")

    greeting = bash("./greet.sh Plans Models").stdout
    print(greeting, end="")
    return {"passed": result.ok, "greeting": greeting.splitlines()}
