# parameters, loop variables and lambdas named like forbidden builtins
from baton import bash, log


def describe(type, id=0, *, open=False):
    state = "open" if open else "closed"
    return f"{type}#{id} ({state})"


def first_word(input):
    return input.split()[0] if input.split() else ""


def report(issues):
    for type, id, flag in issues:
        log(describe(type, id, open=flag))
    vars = [dir for dir in bash("ls -d */ || true").stdout.split()]
    return vars


print(report([("bug", 1, True), ("task", 2, False)]), first_word("hello world"))
pick = lambda getattr: getattr * 2
print(pick(21))
print([hasattr for hasattr in range(3)])
