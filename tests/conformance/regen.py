#!/usr/bin/env python3
"""Regenerate (or check) the expected output of Baton's conformance suite with CPython 3.11.

For every program tests/conformance/<topic>/<NAME>.py (every topic but deviations/):

  NAME.out  exactly what the program writes to stdout (bytes, UTF-8)
  NAME.err  only when the exit code is nonzero:
                exit: N
                last: <the last line of stderr>
                frames: <the tracebacks' frames in the program itself, outermost first>
            (for an uncaught exception the last line is CPython's `Type: message` line; the
            frames are `line N, in NAME` joined by ` | `, one traceback's after another's
            joined by ` || ` (a chain: the cause or context first), without frames of other
            files (CPython's json and re are its stdlib's, Baton's are its own) and without
            the line when CPython folds repeated frames ("[Previous line repeated ...]": a
            RecursionError, whose depth is Baton's own))

Usage:
  python3 tests/conformance/regen.py            rewrite expectations that changed
  python3 tests/conformance/regen.py --check    change nothing; exit 1 if any expectation
                                                differs from what CPython produces now
  python3 tests/conformance/regen.py [--check] PATH...   only these files or topic folders

How programs are run (the same way every time, so regeneration is idempotent):
  <python> -s -P NAME.py, cwd = the program's folder, stdin closed, a per-program timeout,
  and an environment built from nothing but:
      PYTHONHASHSEED=0 PYTHONUTF8=1 PYTHONIOENCODING=utf-8 LC_ALL=C.UTF-8 PATH=/usr/bin:/bin
  That is `python3 -I` (isolated mode) except for -E: -E would also ignore PYTHONHASHSEED,
  and -I then leaves string hashing randomised. Nothing from the caller's environment
  (PYTHONPATH, PYTHONSTARTUP, user site-packages, ...) reaches the program.

Each program is also run a second time with PYTHONHASHSEED=1: a program whose output depends
on the hash seed (printing a set of strings, say) is reported as an error, because Baton's
hashing is not CPython's and such an expectation could never be met.

Invariants checked on every run (violations are errors, nothing is written for them):
  - programs outside errors/ exit 0 and write nothing to stderr;
  - programs in errors/ exit nonzero (an uncaught exception: exit 1);
  - deviations/ holds no .out or .err files (Baton must differ from CPython there).
Stale expectation files (an .out/.err without its .py, an .err for a program that now exits 0)
are deleted by a regeneration and reported by --check.
"""

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SKIP_TOPICS = {"deviations"}
ERROR_TOPIC = "errors"
REQUIRED_VERSION = (3, 11)


def clean_env(seed):
    return {
        "PYTHONHASHSEED": str(seed),
        "PYTHONUTF8": "1",
        "PYTHONIOENCODING": "utf-8",
        "LC_ALL": "C.UTF-8",
        "PATH": "/usr/bin:/bin",
    }


def run_program(python, path, timeout, seed):
    """Returns (stdout bytes, stderr bytes, exit code), or raises subprocess.TimeoutExpired."""
    proc = subprocess.run(
        [python, "-s", "-P", path.name],
        cwd=path.parent,
        env=clean_env(seed),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        timeout=timeout,
    )
    return proc.stdout, proc.stderr, proc.returncode


def last_stderr_line(stderr):
    lines = stderr.decode("utf-8", "replace").rstrip("\n").split("\n")
    return lines[-1].rstrip("\r") if lines else ""


def traceback_frames(stderr, path):
    """The frames of each traceback in `stderr` that are in the program `path`, as
    `line N, in NAME` joined by ` | `, tracebacks joined by ` || ` (tests/conformance.rs reads
    Baton's the same way), or None when CPython folded repeated frames."""
    text = stderr.decode("utf-8", "replace")
    if "[Previous line repeated" in text:
        return None
    blocks = []
    for block in text.split("Traceback (most recent call last):")[1:]:
        frames = []
        for line in block.split("\n"):
            stripped = line.strip()
            if not stripped.startswith('File "'):
                continue
            file, _, rest = stripped[len('File "'):].partition('", ')
            if file.replace("\\", "/").split("/")[-1] == path.name:
                frames.append(rest)
        blocks.append(" | ".join(frames))
    return " || ".join(blocks)


def expectation(python, path, timeout):
    """Runs one program. Returns (out bytes, err bytes or None, problems list)."""
    problems = []
    try:
        out, err, code = run_program(python, path, timeout, 0)
        out2, err2, code2 = run_program(python, path, timeout, 1)
    except subprocess.TimeoutExpired:
        return None, None, [f"timed out after {timeout}s"]
    if (out, code, last_stderr_line(err)) != (out2, code2, last_stderr_line(err2)):
        problems.append("output depends on the hash seed (PYTHONHASHSEED=0 vs 1)")
    in_errors = path.parent.name == ERROR_TOPIC
    if in_errors and code == 0:
        problems.append("programs in errors/ must end with an uncaught exception, but this exits 0")
    if not in_errors and code != 0:
        problems.append(f"exits {code} (only programs in errors/ may fail): {last_stderr_line(err)}")
    if not in_errors and code == 0 and err:
        problems.append("writes to stderr: " + last_stderr_line(err))
    if code < 0:
        problems.append(f"killed by signal {-code}")
    err_file = None
    if code != 0:
        text = f"exit: {code}\nlast: {last_stderr_line(err)}\n"
        frames = traceback_frames(err, path)
        if frames is not None:
            text += f"frames: {frames}\n"
        err_file = text.encode("utf-8")
    return out, err_file, problems


def discover(paths):
    """The programs to run, and the folders whose stale files to look for."""
    programs, folders = [], set()
    targets = [Path(p).resolve() for p in paths] if paths else [ROOT]
    for t in targets:
        if t.is_file():
            if t.suffix == ".py" and t.parent.parent == ROOT and t.parent.name not in SKIP_TOPICS:
                programs.append(t)
            else:
                sys.exit(f"regen: {t} is not a conformance program (tests/conformance/<topic>/NAME.py)")
        elif t.is_dir():
            if t == ROOT:
                topics = sorted(d for d in t.iterdir() if d.is_dir())
            elif t.parent == ROOT:
                topics = [t]
            else:
                sys.exit(f"regen: {t} is not the suite or one of its topic folders")
            for d in topics:
                if d.name in SKIP_TOPICS or d.name.startswith((".", "_")):
                    continue
                folders.add(d)
                programs.extend(sorted(d.glob("*.py")))
        else:
            sys.exit(f"regen: no such file or folder: {t}")
    return sorted(set(programs)), sorted(folders)


def stale_files(folders):
    stale = []
    for d in folders:
        for f in sorted(d.iterdir()):
            if f.suffix in (".out", ".err") and not f.with_suffix(".py").exists():
                stale.append(f)
    for d in SKIP_TOPICS:
        dev = ROOT / d
        if dev.is_dir():
            stale.extend(sorted(f for f in dev.iterdir() if f.suffix in (".out", ".err")))
    return stale


def read_or_none(path):
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="programs or topic folders (default: the whole suite)")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 on any difference")
    ap.add_argument("--python", default="python3", help="the CPython 3.11 to run (default: python3)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per program run (default: 20)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="programs run at once")
    args = ap.parse_args()

    version = subprocess.run(
        [args.python, "-I", "-c", "import sys; print(sys.version_info[0], sys.version_info[1])"],
        stdout=subprocess.PIPE, check=True, env=clean_env(0),
    ).stdout.split()
    if tuple(int(v) for v in version) != REQUIRED_VERSION:
        sys.exit(f"regen: {args.python} is Python {'.'.join(v.decode() for v in version)}, need 3.11")

    programs, folders = discover(args.paths)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda p: expectation(args.python, p, args.timeout), programs))

    errors, changed = [], []
    for path, (out, err, problems) in zip(programs, results):
        rel = path.relative_to(ROOT)
        if problems:
            errors.extend(f"{rel}: {p}" for p in problems)
            continue
        for target, want in ((path.with_suffix(".out"), out), (path.with_suffix(".err"), err)):
            have = read_or_none(target)
            if have == want:
                continue
            changed.append(target)
            if args.check:
                continue
            if want is None:
                target.unlink()
            else:
                target.write_bytes(want)
    stale = stale_files(folders)
    for f in stale:
        changed.append(f)
        if not args.check:
            f.unlink()

    verb = "differs from CPython" if args.check else "updated"
    for f in changed:
        what = "stale" if f in stale else ("missing" if args.check and not f.exists() else verb)
        if not args.check and f in stale:
            what = "deleted (stale)"
        print(f"{f.relative_to(ROOT)}: {what}")
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    n_err = sum(1 for _, (_, err, p) in zip(programs, results) if err is not None and not p)
    print(f"{len(programs)} programs ({n_err} expected to fail), "
          f"{len(changed)} expectation file(s) {'out of date' if args.check else 'changed'}, "
          f"{len(errors)} error(s)")
    if errors or (args.check and changed):
        sys.exit(1)


if __name__ == "__main__":
    main()
