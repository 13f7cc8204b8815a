# functions referring to module-level names defined later, mutual recursion
from baton import bash, log


def main():
    files = list_files()
    return [describe(f) for f in files]


def describe(path):
    return f"{path}: {size_of(path)} bytes"


def size_of(path):
    out = bash(f"wc -c < {path}").stdout.strip()
    return int(out) if out.isdigit() else 0


def list_files():
    return [f for f in bash("ls").stdout.split() if f]


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


LABEL = "report"
log(LABEL, main(), is_even(10))
