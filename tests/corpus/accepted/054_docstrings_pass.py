# module and function docstrings, pass, and bare expressions
"""Plan: tidy the repository before a release.

Runs formatters and reports what changed.
"""
from baton import bash, log


def noop():
    """Does nothing on purpose."""
    pass


def format_all():
    """Run every formatter; ignore failures."""
    for cmd in ("black .", "isort .", "prettier -w ."):
        bash(cmd + " || true")
    return bash("git status --porcelain").stdout.count("\n")


noop()
changed = format_all()
"a bare string expression"
log("formatted files", changed)
