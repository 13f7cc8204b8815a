from baton import bash, llm, inputs
import json

task = inputs.get("task", "fix the failing test")
result = bash("pytest -x -q", timeout=120)
if not result.ok:
    reply = llm(f"Task: {task}\nFailures:\n{result.output[-2000:]}", max_tokens=800)
    data = json.loads(reply) if reply.startswith("{") else {"patch": reply}
    print(data.get("patch", ""))
