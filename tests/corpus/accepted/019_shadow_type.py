# a function-local binding named type is the plan's own variable, not the builtin
from baton import bash, llm, log

LABELS = {"bug": "fix", "feature": "implement", "chore": "tidy"}


def classify(issue):
    type = "bug"
    title = bash(f"gh issue view {issue} --json title -q .title || echo unknown").stdout.strip()
    guess = llm(f"Is '{title}' a bug, feature or chore? One word.").strip().lower()
    if guess in LABELS:
        type = guess
    print(type)
    return type


kind = classify(42)
log("issue type", kind, LABELS[kind])
