# import baton and use qualified SDK names
import baton
import json as j

branch_name = baton.bash("git rev-parse --abbrev-ref HEAD").stdout.strip()
log_lines = baton.bash("git log --oneline -n 20").stdout.splitlines()
subjects = [line.partition(" ")[2] for line in log_lines]
notes = baton.llm(
    "Write release notes for these commits:\n" + "\n".join(subjects),
    system="You write concise release notes.",
)
baton.log("release notes", {"branch": branch_name, "commits": len(subjects)})
print(j.dumps({"branch": branch_name, "notes": notes}))
print(baton.inputs.get("version", "unreleased"))
