# expect: B101
# a forbidden module hidden beside an allowed one
import json, subprocess

subprocess.run(["id"])
print(json.dumps(1))
