# ask for a JSON plan, parse it defensively with json.loads
import json
from baton import llm, log, inputs

prompt = (
    "Break the following task into at most five steps. "
    'Reply with a JSON list of objects with "title" and "command" keys.\n'
    + inputs.get("task", "fix the failing build")
)

steps = []
for tries in range(3):
    reply = llm(prompt)
    try:
        steps = json.loads(reply)
    except json.JSONDecodeError as err:
        log("bad json", str(err))
        prompt = prompt + "\nYour last reply was not valid JSON. Reply with JSON only."
        continue
    if isinstance(steps, list) and all(isinstance(s, dict) for s in steps):
        break
    steps = []

print(json.dumps(steps, indent=2, sort_keys=True))
