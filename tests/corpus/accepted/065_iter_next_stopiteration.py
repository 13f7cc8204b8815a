# iter(), next() with and without a default, and StopIteration: the first match of a search,
# the first line of a command's output, and a manual loop over an iterator.
from baton import bash


def first_failing(results):
    return next((name for name, ok in results if not ok), None)


def head(command):
    lines = iter(bash(command).stdout.splitlines())
    try:
        return next(lines)
    except StopIteration:
        return ""


def pairs(items):
    it = iter(items)
    out = []
    for first in it:
        out.append((first, next(it, None)))
    return out


print(first_failing([("a", True), ("b", False)]), head("ls"), pairs([1, 2, 3]))
