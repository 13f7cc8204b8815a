# baton.inputs through the module and default handling
import baton

repo = baton.inputs["repo"]
branch_name = baton.inputs.get("branch") or "main"
depth = baton.inputs.get("depth", 1)
clone = baton.bash(f"git clone --depth {depth} --branch {branch_name} {repo} work", timeout=300)
if not clone.ok:
    baton.log("clone failed", clone.stderr)
    raise RuntimeError("clone failed")
files = baton.bash("cd work && git ls-files | wc -l").stdout.strip()
outcome = baton.branch([lambda: baton.bash("cd work && make").ok], validate=lambda ok: ok)
results = baton.parallel([lambda: baton.llm("Summarise the README")])
print(files, outcome, results[0][:100])
