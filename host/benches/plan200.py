# A ~200-line orchestration-style plan for the host benchmarks: triage a (simulated) failing
# test suite, group failures, schedule retries and print a report. Uses only what the compiler
# supports today (no `from baton import ...`: the SDK host calls do not exist yet).

RAW_LOG = """
tests/test_parser.py::test_empty PASSED
tests/test_parser.py::test_nested FAILED AssertionError: expected 3 got 2
tests/test_parser.py::test_unicode PASSED
tests/test_lexer.py::test_tabs FAILED IndentationError: unexpected indent
tests/test_lexer.py::test_numbers PASSED
tests/test_lexer.py::test_strings FAILED AssertionError: quote mismatch
tests/test_eval.py::test_add PASSED
tests/test_eval.py::test_div FAILED ZeroDivisionError: division by zero
tests/test_eval.py::test_mod PASSED
tests/test_eval.py::test_pow SKIPPED slow
tests/test_io.py::test_read FAILED FileNotFoundError: data.txt
tests/test_io.py::test_write PASSED
"""

MAX_ATTEMPTS = 3
PRIORITY = {"ZeroDivisionError": 3, "AssertionError": 2, "IndentationError": 1}


def parse_line(line):
    line = line.strip()
    if not line:
        return None
    head, _, rest = line.partition(" ")
    path, _, name = head.partition("::")
    status, _, detail = rest.partition(" ")
    error = ""
    message = ""
    if detail:
        error, _, message = detail.partition(": ")
    return {
        "file": path,
        "test": name,
        "status": status,
        "error": error,
        "message": message,
    }


def parse_log(text):
    results = []
    for line in text.split("\n"):
        parsed = parse_line(line)
        if parsed is not None:
            results.append(parsed)
    return results


def group_by(items, key):
    groups = {}
    for item in items:
        k = key(item)
        if k not in groups:
            groups[k] = []
        groups[k].append(item)
    return groups


def summarize(results):
    counts = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    parts = [f"{status.lower()}={n}" for status, n in sorted(counts.items())]
    return ", ".join(parts)


def make_scorer(weights, default=0):
    def score(result):
        base = weights.get(result["error"], default)
        if "test_" in result["test"]:
            base += len(result["test"]) % 3
        return base

    return score


def rank_failures(failures, scorer):
    scored = [(scorer(f), f["file"], f["test"], f) for f in failures]
    scored.sort(key=lambda t: (-t[0], t[1], t[2]))
    return [t[3] for t in scored]


def simulate_fix(failure, attempt):
    # Deterministic stand-in for "ask a model to fix it, run the test again".
    seed = len(failure["test"]) * 7 + len(failure["file"]) * 3 + attempt * 11
    if failure["error"] == "FileNotFoundError":
        raise LookupError(failure["message"])
    if seed % 4 == 0 or attempt == MAX_ATTEMPTS - 1:
        return {"ok": True, "diff": f"--- a/{failure['file']}\n+++ b/{failure['file']}\n"}
    return {"ok": False, "reason": f"attempt {attempt + 1}: still {failure['error']}"}


def try_fix(failure):
    history = []
    for attempt in range(MAX_ATTEMPTS):
        try:
            outcome = simulate_fix(failure, attempt)
        except LookupError as error:
            history.append(f"missing file: {error}")
            return {"fixed": False, "history": history, "attempts": attempt + 1}
        if outcome["ok"]:
            history.append("fixed")
            return {"fixed": True, "history": history, "attempts": attempt + 1}
        history.append(outcome["reason"])
    return {"fixed": False, "history": history, "attempts": MAX_ATTEMPTS}


def counter():
    total = 0

    def add(n):
        nonlocal total
        total += n
        return total

    return add


def wrap(text, width):
    words = text.split()
    lines = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        elif current:
            current = current + " " + word
        else:
            current = word
    if current:
        lines.append(current)
    return lines


def table(rows, headers):
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(str(cell)))
    out = []
    out.append(" | ".join(h.ljust(widths[i]) for i, h in enumerate(headers)))
    out.append("-+-".join("-" * w for w in widths))
    for row in rows:
        out.append(" | ".join(str(c).ljust(widths[i]) for i, c in enumerate(row)))
    return "\n".join(out)


def retry_budget(failures, per_error):
    budget = {}
    for f in failures:
        err = f["error"] or "Unknown"
        budget[err] = budget.get(err, 0) + per_error.get(err, 1)
    return budget


def main():
    results = parse_log(RAW_LOG)
    print(f"parsed {len(results)} results: {summarize(results)}")

    failures = [r for r in results if r["status"] == "FAILED"]
    by_file = group_by(failures, lambda r: r["file"])
    for path in sorted(by_file):
        names = ", ".join(r["test"] for r in by_file[path])
        print(f"  {path}: {len(by_file[path])} failing ({names})")

    scorer = make_scorer(PRIORITY, default=-1)
    ranked = rank_failures(failures, scorer)
    print("order:", [f"{r['test']}:{scorer(r)}" for r in ranked])

    attempts = counter()
    report = []
    fixed = set()
    for failure in ranked:
        result = try_fix(failure)
        attempts(result["attempts"])
        if result["fixed"]:
            fixed.add(failure["test"])
        report.append((failure["test"], failure["error"], result["attempts"], result["history"][-1]))

    print(table(report, ["test", "error", "tries", "last"]))
    print(f"fixed {len(fixed)}/{len(failures)} in {attempts(0)} attempts")

    budget = retry_budget(failures, {"AssertionError": 2, "ZeroDivisionError": 1})
    for err, n in sorted(budget.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"budget {err:<20} {n:>3}")

    remaining = {f["test"]: f["message"] for f in failures if f["test"] not in fixed}
    if remaining:
        notes = "; ".join(f"{k} ({v})" for k, v in remaining.items())
        for line in wrap("still failing: " + notes, 60):
            print("  " + line)

    try:
        worst = max(failures, key=scorer)
        ratio = len(fixed) / (len(failures) - len(failures))
    except ZeroDivisionError:
        ratio = None
    print(f"worst={worst['test']} ratio={ratio}")

    matrix = [[i * j for j in range(1, 5)] for i in range(1, 5)]
    diag = [matrix[i][i] for i in range(len(matrix))]
    squares = {n: n * n for n in diag if n % 2 == 0}
    print("diag", diag, "squares", squares)

    words = [w for line in RAW_LOG.split("\n") for w in line.split() if w.isupper()]
    print("statuses seen:", sorted(set(words)))
    return len(fixed)


n = main()
print(f"done: {n}")
