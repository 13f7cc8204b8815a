# branch with validate returning bool and adopt=False exploration
from baton import bash, branch

candidates = ["python3.11", "python3.12", "python3"]


def probe(exe):
    result = bash(f"{exe} --version", timeout=5)
    return exe if result.ok else None


found = branch(
    [lambda exe=exe: probe(exe) for exe in candidates],
    validate=lambda v: v is not None,
    adopt=False,
)
print("interpreter:", found)
