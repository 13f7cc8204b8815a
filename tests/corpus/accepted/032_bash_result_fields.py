# inspect every field of a bash result
from baton import bash, log

result = bash("timeout 2 sleep 5; echo done", timeout=10)
if result.timed_out:
    log("command timed out")
elif not result.ok:
    log("failed", result.returncode, result.stderr[-500:])
else:
    print(result.stdout.strip())

combined = str(result)
print(len(combined), len(result.output))
status = {True: "ok", False: "failed"}[result.ok]
print(status)
