# keyword arguments named input/type/id are names of parameters, not builtins
from baton import bash, llm

patch = llm("Write a patch that fixes the typo in README.md")
applied = bash("git apply -", input=patch, timeout=30)
record = dict(type="patch", id=7, ok=applied.ok)
message = llm(
    [
        {"role": "system", "content": "You write commit messages."},
        {"role": "user", "content": patch},
    ],
    max_tokens=60,
)
print(record, message.splitlines()[0] if message else "")
