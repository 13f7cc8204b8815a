#!/usr/bin/env python3
"""Run Baton's CPython-comparison benchmarks and print a table.

Every benchmark in this folder is a plan that is also a valid CPython 3.11 program and prints a
checksum. For each one this script:

  1. compiles it with `baton compile` (parse, check, code generation, WAT assembly) and runs the
     module once against an empty module cache (Cranelift compiles it and fills the cache): the
     "compile" column is the compile command's time plus how much longer that cold run took
     than a warm one;
  2. runs the compiled module REPEAT times with the cache warm (so no compilation at all) and
     the same program REPEAT times under CPython, keeping the fastest run of each;
  3. checks that both printed exactly the same bytes and exited 0;
  4. subtracts each side's start-up cost, measured the same way on `empty.py` (process start,
     loading the cached module / starting the interpreter), giving the "net" time the program's
     own work took; the ratio is Baton's net time over CPython's (below 1: Baton is faster);
  5. times the program inside each process as well, REPEAT more runs each, keeping the fastest:
     Baton's own figure for the run (`seconds` in the run directory's figures.json:
     instantiating the module and running it) and, for CPython, `time.perf_counter` around
     `runpy.run_path` of the program in an interpreter that has already started. Each side's
     `empty.py` figure is subtracted again ("run" columns). Process start-up on a busy machine
     varies by tens of milliseconds, more than some programs take; these columns do not see it.

Usage (from the repository root, after `cargo build --release`):

  python3 bench/run.py [--repeat N] [--baton PATH] [--python PATH] [--markdown] [NAME ...]

Times are wall-clock (time.perf_counter around the child process); CPU time is shown beside them
because a shared machine's load inflates wall time but not CPU time.

CPython runs as `python -S`: without the `site` module, so the site-packages' `.pth` files do not
run at its start. They are code of whatever the machine has installed (one machine's imported
`certifi` at every start, 35 ms of its 50), not CPython's, and would make every whole-process
figure depend on the machine; the programs need only the standard library. The last columns are
Baton's memory manager in the fastest in-process run: collections, time spent collecting, and
its share of the run's time.
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# In table order; `empty` is the start-up baseline subtracted from the others.
BENCHMARKS = [
    ("fib", "recursive fib(27)"),
    ("loop_for", "for i in range(10M): total += i"),
    ("loop_while", "while i < 10M: total += i; i += 1"),
    ("strings", "f-strings + join, ~6 MB of text"),
    ("wordcount", "word counts of 1 MB text in a dict"),
    ("sort", "sort 200k tuples with a key"),
    ("json_roundtrip", "json.dumps + loads of ~1 MB"),
    ("parse_ls", "parse 10k `ls -l` lines"),
    # The long-running plans of tests/memory (issue 17: memory that is reclaimed).
    ("memory/string_log", "20k appends to one str"),
    ("memory/agent_output_loop", "3k steps over a 14 KB `ls` output"),
    ("memory/lru_dict", "LRU dict, 200k inserts/deletes"),
    ("memory/game_of_life", "48x48 life, 300 new grids"),
    ("memory/json_roundtrip_loop", "60 KB JSON loaded+dumped 400x"),
    ("memory/exceptions_loop", "300k exceptions raised+caught"),
    ("memory/closures_loop", "500k closures made+dropped"),
    ("memory/agent_history", "4k message dicts, prompt of last 30"),
    ("memory/callback_garbage", "300 MB of garbage inside each of 9 builtin calls"),
]
BASELINE = "empty"


class Failure(Exception):
    pass


def timed(command, env=None):
    """Runs a command; returns (wall seconds, cpu seconds, stdout bytes)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise Failure(f"{' '.join(map(str, command))} exited {done.returncode}: {' | '.join(tail)}")
    return wall, cpu, done.stdout


def best(command, repeat, env=None):
    """The fastest of `repeat` runs: (wall, cpu, stdout of the first run)."""
    runs = [timed(command, env) for _ in range(repeat)]
    outputs = {r[2] for r in runs}
    if len(outputs) != 1:
        raise Failure(f"{command[-1]}: output differs between runs")
    return min(r[0] for r in runs), min(r[1] for r in runs), runs[0][2]


# Runs the program given as argv[1] as `__main__` and writes the seconds it took to stderr.
# `pkgutil` is imported before the clock starts: `runpy.run_path` imports it on first use, and
# with it `typing` and `re`, ~10 ms that `site` has usually paid already but that `-S` leaves
# to the first program (it was the whole of CPython's in-process `empty.py` figure).
IN_PROCESS = (
    "import pkgutil, runpy, sys, time\n"
    "program = sys.argv[1]; sys.argv = sys.argv[1:]\n"
    "start = time.perf_counter()\n"
    "runpy.run_path(program, run_name='__main__')\n"
    "sys.stdout.flush()\n"
    "print(f'seconds={time.perf_counter() - start!r}', file=sys.stderr)\n"
)


def run_seconds(command, env=None):
    """The fastest in-process time of the program over the runs of `command` (a list of
    commands, one per run): Baton's figures.json `seconds`, or the IN_PROCESS driver's line;
    with Baton's heap figures of that run (collections, seconds collecting), if any."""
    fastest = float("inf")
    heap = {}
    for cmd, run_dir in command:
        done = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, env=env, check=False)
        if done.returncode != 0:
            raise Failure(f"{' '.join(map(str, cmd))} exited {done.returncode}")
        run_heap = {}
        if run_dir is not None:
            figures = json.loads((run_dir / "figures.json").read_text())
            seconds = figures["seconds"]
            run_heap = figures.get("heap") or {}
            shutil.rmtree(run_dir, ignore_errors=True)
        else:
            line = done.stderr.decode().strip().splitlines()[-1]
            seconds = float(line.removeprefix("seconds="))
        if seconds < fastest:
            fastest, heap = seconds, run_heap
    return fastest, heap


def measure(name, args, work):
    source = HERE / f"{name}.py"
    if not source.exists():
        source = ROOT / "tests" / f"{name}.py"
    name = name.replace("/", "-")
    module = work / f"{name}.wasm"
    cache = work / f"cache-{name}"
    # Run directories go to the scratch directory, not into the repository.
    env = dict(os.environ, BATON_CACHE_DIR=str(cache), BATON_RUNS_DIR=str(cache.parent / "runs"))
    compile_wall, _, _ = timed([args.baton, "compile", str(source), "-o", str(module)], env)
    cold_wall, _, _ = timed([args.baton, "run", str(module)], env)
    b_wall, b_cpu, b_out = best([args.baton, "run", str(module)], args.repeat, env)
    p_wall, p_cpu, p_out = best([args.python, "-S", str(source)], args.repeat)
    if b_out != p_out:
        raise Failure(
            f"{name}: outputs differ\n  baton:   {b_out[:200]!r}\n  cpython: {p_out[:200]!r}"
        )
    runs = [work / f"run-{name}-{i}" for i in range(args.repeat)]
    b_run, heap = run_seconds(
        [([args.baton, "run", str(module), "--run-dir", str(d)], d) for d in runs], env
    )
    p_run, _ = run_seconds([([args.python, "-S", "-c", IN_PROCESS, str(source)], None)] * args.repeat)
    return {
        "collections": heap.get("collections", 0),
        "collect_seconds": heap.get("collect_seconds", 0.0),
        "baton_run": b_run,
        "python_run": p_run,
        "compile": compile_wall + max(cold_wall - b_wall, 0.0),
        "baton": b_wall,
        "baton_cpu": b_cpu,
        "python": p_wall,
        "python_cpu": p_cpu,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baton", default=str(ROOT / "target" / "release" / "baton"))
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("names", nargs="*", help="only these benchmarks")
    args = parser.parse_args()
    if not Path(args.baton).is_file():
        sys.exit(f"no Baton binary at {args.baton}: run `cargo build --release` first")
    version = subprocess.run(
        [args.python, "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()

    chosen = [b for b in BENCHMARKS if not args.names or b[0] in args.names]
    work = Path(tempfile.mkdtemp(prefix="baton-bench-"))
    failed = False
    try:
        base = measure(BASELINE, args, work)
        rows = []
        for name, what in chosen:
            try:
                m = measure(name, args, work)
            except Failure as error:
                print(f"FAIL {error}", file=sys.stderr)
                failed = True
                continue
            b_net = max(m["baton"] - base["baton"], 0.0)
            p_net = max(m["python"] - base["python"], 0.0)
            ratio = b_net / p_net if p_net > 0 else float("nan")
            b_run = max(m["baton_run"] - base["baton_run"], 0.0)
            p_run = max(m["python_run"] - base["python_run"], 0.0)
            m["run_ratio"] = b_run / p_run if p_run > 0 else float("nan")
            m["baton_run_net"], m["python_run_net"] = b_run, p_run
            rows.append((name, what, m, b_net, p_net, ratio))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"CPython: {version} ({args.python}); best of {args.repeat} runs; times in ms")
    print(
        f"start-up (empty.py): Baton {base['baton'] * 1e3:.0f}, CPython {base['python'] * 1e3:.0f}; "
        "net = total - start-up; ratio = Baton net / CPython net"
    )
    print(
        f"in-process (empty.py): Baton {base['baton_run'] * 1e3:.1f}, CPython "
        f"{base['python_run'] * 1e3:.1f}; run = in-process time - empty's; "
        "run ratio = Baton run / CPython run"
    )
    header = ["benchmark", "what", "Baton total", "CPython total", "Baton net",
              "CPython net", "ratio", "Baton run", "CPython run", "run ratio", "Baton CPU",
              "CPython CPU", "compile", "GCs", "GC ms", "GC share"]
    table = [
        [
            name,
            what,
            f"{m['baton'] * 1e3:.0f}",
            f"{m['python'] * 1e3:.0f}",
            f"{b_net * 1e3:.0f}",
            f"{p_net * 1e3:.0f}",
            f"{ratio:.2f}",
            f"{m['baton_run_net'] * 1e3:.1f}",
            f"{m['python_run_net'] * 1e3:.1f}",
            f"{m['run_ratio']:.2f}",
            f"{m['baton_cpu'] * 1e3:.0f}",
            f"{m['python_cpu'] * 1e3:.0f}",
            f"{m['compile'] * 1e3:.0f}",
            f"{m['collections']}",
            f"{m['collect_seconds'] * 1e3:.1f}",
            f"{m['collect_seconds'] / m['baton_run'] * 100:.0f}%" if m["baton_run"] > 0 else "-",
        ]
        for name, what, m, b_net, p_net, ratio in rows
    ]
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" if i < 2 else "---:" for i in range(len(header))) + "|")
        for row in table:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(r[i]) for r in [header] + table) for i in range(len(header))]
        for row in [header] + table:
            print("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
