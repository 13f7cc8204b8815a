#!/usr/bin/env python3
"""Targeted differential checks: thousands of calls of one area of the builtin surface in one
plan, run under Baton and CPython 3.11, compared line by line.

The random-plan tester (`baton-difftest`) builds whole programs; these build flat lists of
calls with arguments of every type in every position, which is how the argument-order and
error-message classes it had missed were found (format specs, str method arguments, sort,
dict.pop, float ** with huge exponents, sum, extended slices). Each line of a plan prints its
index and the repr of the result or of the exception, so a difference names the call.

Usage:
  python3 tests/difftest/targeted.py [--python PY] [--baton BATON] [--seed S] [--count N] [AREA...]

Areas: arithmetic sets str_format specs strmethods containers numbers percent json builtins
slicing sort. Exit status 1
when any line differs (the differing lines are printed), 0 otherwise. Known deviations (ints
beyond 64 bits, set order, complex results) are counted apart, not as differences.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def guarded(i, expr, errors="Exception", tail=""):
    return f"try:\n    print({i}, repr({expr}){tail})\nexcept {errors} as e:\n    print({i}, repr(e){tail})"


def specs(r, n):
    vals = ["0", "7", "-42", "123456", "3.14159", "-0.5", "2.5", "1e20", "-0.0", "True", '"ab"', "255"]
    out = []
    for i in range(n):
        spec = ""
        fill, align = r.choice(["", "", "*", "0", "<", " ", "é"]), r.choice(["", "", "<", ">", "^", "="])
        spec += fill + align if align else ""
        spec += r.choice(["", "", "+", "-", " "]) + r.choice(["", "", "0"])
        spec += r.choice(["", "", "1", "5", "12"]) + r.choice(["", "", "", ",", "_"])
        spec += r.choice(["", "", ".0", ".2", ".5"]) + r.choice(["", "d", "x", "X", "o", "b", "f", "e", "g", "%", "s", "c", "n"])
        v = r.choice(vals)
        out.append(guarded(i, f"f'{{{v}:{spec}}}'", "(ValueError, TypeError, OverflowError)"))
        out.append(guarded(i, f"'{{:{spec}}}'.format({v})", "(ValueError, TypeError, OverflowError)"))
    return out


def strmethods(r, n):
    strs = ["", "a", "abc", "  ab  c ", "a,b,,c", "x\ty\nz", "ÀÉîõü", "ß", "ǅ", "Hello World", "aXbXc", "--a--", "  12  ", "٣", "İstanbul", "ﬁ", "ab\r\ncd\rx\x0by\x85\u2028"]
    args = ["''", "'a'", "','", "' '", "'X'", "'ab'", "'é'", "None", "0", "1", "-1", "3", "100", "('a', 'b')", "1.5", "True", "[]"]
    methods = {"split": 2, "rsplit": 2, "splitlines": 1, "strip": 1, "lstrip": 1, "rstrip": 1, "find": 3, "rfind": 3, "index": 3, "rindex": 3, "count": 3, "startswith": 3, "endswith": 3, "replace": 3, "partition": 1, "rpartition": 1, "zfill": 1, "center": 2, "ljust": 2, "rjust": 2, "expandtabs": 1, "lower": 0, "upper": 0, "title": 0, "capitalize": 0, "swapcase": 0, "casefold": 0, "isalpha": 0, "isdigit": 0, "isnumeric": 0, "isspace": 0, "istitle": 0, "isidentifier": 0, "isprintable": 0, "join": 1, "removeprefix": 1, "removesuffix": 1}
    out = []
    for i in range(n):
        s, m = r.choice(strs), r.choice(list(methods))
        a = ", ".join(r.choice(args) for _ in range(r.randint(0, methods[m] + 1)))
        out.append(guarded(i, f"{s!r}.{m}({a})"))
    return out


def containers(r, n):
    lists = ["[]", "[1, 2, 3]", "[3, 1, 2, 1]", "['a', 'b']", "[1, 'a', None]", "[(1, 2), (0, 5)]"]
    dicts = ["{}", "{'a': 1}", "{'a': 1, 'b': 2}", "{1: 'x', (1, 2): None}"]
    args = ["0", "1", "-1", "5", "None", "'a'", "[]", "[4, 5]", "(6,)", "1.5", "True", "{}", "{'c': 3}", "[('k', 1)]", "range(3)"]
    lm = {"append": 1, "extend": 1, "insert": 2, "pop": 1, "remove": 1, "index": 3, "count": 1, "reverse": 0, "clear": 0, "copy": 0}
    dm = {"get": 2, "pop": 2, "setdefault": 2, "update": 1, "keys": 0, "values": 0, "items": 0, "popitem": 0, "copy": 0, "clear": 0, "fromkeys": 2}
    out = []
    for i in range(n):
        v, ms = (r.choice(lists), lm) if r.random() < 0.6 else (r.choice(dicts), dm)
        m = r.choice(list(ms))
        a = ", ".join(r.choice(args) for _ in range(r.randint(0, ms[m] + 1)))
        out.append(f"x = {v}\n" + guarded(i, f"x.{m}({a})", tail=", x"))
    return out


def numbers(r, n):
    pieces = ["", " ", "\t", "+", "-", "0", "1", "7", "_", ".", "e", "x", "0x", "0b", "0o", "inf", "nan", "Infinity", "ff", "1_0", "٣", "e+5", "  12  ", "1e400", ".5", "5.", "0_1", "00"]
    forms = ["int({s!r})", "float({s!r})", "int({s!r}, 0)", "int({s!r}, 16)", "int({s!r}, 2)", "int({s!r}, 36)"]
    return [guarded(i, r.choice(forms).format(s="".join(r.choice(pieces) for _ in range(r.randint(0, 4)))), "(ValueError, OverflowError, TypeError)") for i in range(n)]


def percent(r, n):
    vals = ["0", "7", "-42", "3.14159", "-0.5", "'ab'", "None", "True", "[1]", "(1, 2)", "255", "2.5", "'é'", "65"]
    out = []
    for i in range(n):
        k = r.randint(1, 3)
        fmt = "".join(r.choice(["", " ", "|"]) + "%" + r.choice(["", "-", "+", " ", "0", "#"]) + r.choice(["", "5", "*"]) + r.choice(["", ".2", ".*"]) + r.choice("sdirxXofFeEgGc%ab") for _ in range(k))
        items = [r.choice(vals) for _ in range(k + fmt.count("*") + r.choice([0, 0, 1, -1]))]
        rhs = "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        out.append(guarded(i, f"{fmt!r} % {rhs}", "(ValueError, OverflowError, TypeError, KeyError)"))
    return out


def json_(r, n):
    pieces = ['{', '}', '[', ']', ',', ':', '"a"', '"b\\u00e9"', '1', '-0', '1.5e3', 'true', 'null', ' ', '\n', '"\\x"', '"', 'NaN', '-Infinity', '01', '1.', '"\\ud800"', '1e999', "'a'", '[1,]']
    out = ["import json"]
    for i in range(n):
        out.append(guarded(i, f"json.loads({''.join(r.choice(pieces) for _ in range(r.randint(1, 7)))!r})", "ValueError"))
        v = r.choice(["{'a': [1, 2.5, None, True]}", "{1: 2, 'x': 'é'}", "[float('nan')]", "{(1,): 2}", "{True: 1, None: 2, 1.5: 3}", "'\\u2028\\x00'"])
        kw = r.choice(["", "indent=2", "sort_keys=True", "ensure_ascii=False", "separators=(',', ':')", "indent='\\t'", "allow_nan=False", "skipkeys=True"])
        out.append(guarded(i, f"json.dumps({v}, {kw})", "(ValueError, TypeError)"))
    return out


def builtins(r, n):
    vals = ["[]", "[3, 1, 2]", "[1, 'a']", "'abc'", "''", "(5,)", "{1: 2}", "0", "-7", "2.5", "None", "True", "range(4)", "[(1, 'b'), (1, 'a')]", "-0.0", "1e308", "'10'"]
    fns = ["min({a})", "max({a})", "sum({a})", "sorted({a})", "len({a})", "abs({a})", "round({a})", "round({a}, 1)", "divmod({a}, {b})", "min({a}, {b})", "max({a}, key=len)", "min({a}, default=9)", "sum({a}, {b})", "list(reversed({a}))", "any({a})", "list(zip({a}, {b}))", "list(enumerate({a}, 1))", "int({a})", "float({a})", "str({a})", "tuple({a})", "dict({a})", "pow({a}, {b})", "{a} // {b}", "{a} % {b}", "{a} ** {b}", "{a} + {b}", "{a} * {b}", "{a} < {b}", "{a} in {b}", "chr({a})", "ord({a})"]
    return [guarded(i, r.choice(fns).format(a=r.choice(vals), b=r.choice(vals))) for i in range(n)]


def slicing(r, n):
    seqs = ["[0, 1, 2, 3, 4]", "'héllo'", "(1, 2, 3)", "[]", "range(10)", "range(2, 20, 3)"]
    idx = ["", "0", "1", "-1", "-3", "10", "-10", "None", "True", "1.5", "'a'"]
    out = []
    for i in range(n):
        s, a, b, c = r.choice(seqs), r.choice(idx), r.choice(idx), r.choice(idx)
        out.append(f"s = {s}\n" + guarded(i, f"s[{a}:{b}:{c}]", tail=" if not isinstance(s, range) else 0"))
        val = r.choice(["[]", "[9]", "[7, 8, 9]", "'xy'", "5"])
        out.append(f"x = [0, 1, 2, 3, 4, 5]\ntry:\n    x[{a}:{b}:{c}] = {val}\n    print({i}, x)\nexcept Exception as e:\n    print({i}, repr(e), x)")
    return out


def sort(r, n):
    pool = [0, 1, -3, 7, 2.5, True, "a", "", (1, 2), [1], None, 9, 4]
    out = []
    for i in range(n):
        size = r.choice([0, 1, 2, 3, 5, 8, 16, 30, 63])
        xs = [r.randint(-9, 9) for _ in range(size)]
        if size and r.random() < 0.5:
            xs[r.randrange(size)] = r.choice(pool)
        args = ", ".join(a for a in [r.choice(["", "key=str", "key=lambda v: v"]), r.choice(["", "reverse=True"])] if a)
        out.append(f"xs = {xs!r}\ntry:\n    xs.sort({args})\n    print({i}, xs)\nexcept Exception as e:\n    print({i}, repr(e), xs)")
    return out


def arithmetic(r, n):
    vals = ["0", "1", "-1", "7", "-7", "3", "2**40", "-2**40", "2**62", "0.0", "-0.0", "2.5", "-2.5", "1e308", "1e-320", "float('inf')", "float('nan')", "True", "False", "0.1"]
    ops = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<", "<=", "==", "!=", ">", ">="]
    out = []
    for i in range(n):
        a, b, op = r.choice(vals), r.choice(vals), r.choice(ops)
        if op in ("**", "<<"):
            # A huge exponent or shift keeps CPython computing a huge int for minutes.
            b = r.choice(["0", "1", "-1", "3", "2.5", "-2.5", "True", "0.0"])
        e = r.choice([f"({a}) {op} ({b})", f"divmod({a}, {b})", f"round({a}, {r.choice(['0', '1', '-1', '2', 'None'])})", f"abs({a})", f"-({a})", f"~({a})", f"pow({a}, {b}, {r.choice(['5', '0', '-3', '2.0'])})", f"int({a})", f"repr(float({a}))"])
        out.append(guarded(i, e, "(ArithmeticError, TypeError, ValueError)"))
    return out


def sets(r, n):
    vals = ["set()", "{1, 2, 3}", "{3}", "{'a', 'b'}", "{1, 'a'}", "frozenset_skip"]
    args = ["[]", "[1, 5]", "{2, 3}", "'ab'", "1", "None", "(3, 4)", "{1: 2}"]
    # pop() is left out: which element it takes is the set-order deviation.
    methods = {"add": 1, "discard": 1, "remove": 1, "union": 2, "intersection": 2, "difference": 2, "symmetric_difference": 1, "issubset": 1, "issuperset": 1, "isdisjoint": 1, "update": 2, "copy": 0, "clear": 0}
    out = []
    for i in range(n):
        v = r.choice(vals[:-1])
        if r.random() < 0.7:
            m = r.choice(list(methods))
            a = ", ".join(r.choice(args) for _ in range(r.randint(0, methods[m] + 1)))
            out.append(f"x = {v}\n" + guarded(i, f"sorted(x.{m}({a}), key=repr) if isinstance(x.{m}, int) else x.{m}({a})", tail=", sorted(x, key=repr)"))
        else:
            op = r.choice(["|", "&", "-", "^", "<", "<=", "==", ">", "in"])
            out.append(f"x = {v}\n" + guarded(i, f"x {op} {r.choice(vals[:-1] + args)}", tail=", sorted(x, key=repr)"))
    return out


def str_format(r, n):
    fields = ["{}", "{0}", "{1}", "{x}", "{0!r}", "{x!s}", "{0:>5}", "{x:^7}", "{}{}", "{2}", "{y}", "{0!a}", "{:{}}", "{{}}", "{", "}", "{!r:>4}"]  # no {0[0]} or {0.real}: the checker refuses them (B401)
    vals = ["1", "'ab'", "[1, 2]", "2.5", "None", "{'k': 3}"]
    out = []
    for i in range(n):
        t = "".join(r.choice(fields) + r.choice(["", " ", "-"]) for _ in range(r.randint(1, 3)))
        pos = ", ".join(r.choice(vals) for _ in range(r.randint(0, 3)))
        kw = ", ".join(f"{k}={r.choice(vals)}" for k in r.sample(["x", "y"], r.randint(0, 2)))
        out.append(guarded(i, f"{t!r}.format({', '.join(a for a in [pos, kw] if a)})", "(ValueError, TypeError, IndexError, KeyError, AttributeError)"))
    return out


AREAS = {"arithmetic": arithmetic, "sets": sets, "str_format": str_format, "specs": specs, "strmethods": strmethods, "containers": containers, "numbers": numbers, "percent": percent, "json": json_, "builtins": builtins, "slicing": slicing, "sort": sort}

# Baton's answer where it differs on purpose (README, "Where Baton differs"): ints beyond 64
# bits, no complex numbers; a set printed in another order has the same characters.
DEVIATION = re.compile(r"integer overflow|negative number cannot be raised")


def deviation(expected, got):
    return bool(DEVIATION.search(got)) or ("{" in expected and sorted(expected) == sorted(got))


def run(cmd, path, env=None):
    done = subprocess.run(cmd + [str(path)], capture_output=True, text=True, env=env, timeout=600)
    return done.stdout.splitlines(), done.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default="python3")
    parser.add_argument("--baton", default=str(ROOT / "target" / "release" / "baton"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("areas", nargs="*", default=list(AREAS))
    args = parser.parse_args()
    env = dict(os.environ, BATON_CACHE_DIR="off")
    failed = False
    with tempfile.TemporaryDirectory() as work:
        for area in args.areas:
            lines = AREAS[area](random.Random(f"{area}-{args.seed}"), args.count)
            # Plans of at most 1,000 calls, within the checker's bounds on a plan's size.
            prelude = [line for line in lines if line.startswith("import ")]
            calls = [line for line in lines if not line.startswith("import ")]
            expected, got, err = [], [], ""
            for start in range(0, len(calls), 1000):
                path = Path(work) / f"plan_{area}_{start}.py"
                path.write_text("\n".join(prelude + calls[start:start + 1000]) + "\n", encoding="utf-8")
                expected += run([args.python, "-W", "ignore"], path)[0]
                part, err = run([args.baton, "run", "--fuel", "50000000000"], path, env)
                got += part
            differ, deviations = [], 0
            for i in range(max(len(expected), len(got))):
                e = expected[i] if i < len(expected) else "<missing>"
                g = got[i] if i < len(got) else "<missing>"
                if e == g:
                    continue
                if deviation(e, g):
                    deviations += 1
                else:
                    differ.append((e, g))
            print(f"{area}: {len(expected)} lines, {len(differ)} differ, {deviations} deviations")
            for e, g in differ[:20]:
                print(f"  CPython: {e[:150]}\n  Baton:   {g[:150]}")
            if not got and err:
                print("  " + err.strip().splitlines()[-1])
            failed |= bool(differ)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
