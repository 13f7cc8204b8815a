"""Fix a failing test suite with a small tournament of coding agents.

A realistic plan for benchmarking the checker: it gathers context with bash, asks models for
diagnoses and patches, explores candidate patches in parallel branches, scores them by running
the tests, refines the best one, and writes a structured report. Every construct here is part of
the plan language, so the checker must accept this file.
"""

from baton import bash, llm, branch, parallel, log, inputs
import json

# ---------------------------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------------------------

TASK = inputs.get("task", "make the test suite pass")
REPO_DIR = inputs.get("repo", ".")
TEST_COMMAND = inputs.get("test_command", "python -m pytest -x -q")
MAX_CANDIDATES = int(inputs.get("candidates", 4))
MAX_ROUNDS = int(inputs.get("rounds", 3))
MODELS = inputs.get("models", ["fast-model", "strong-model"])
TEMPERATURES = [0.0, 0.3, 0.6, 0.9]
MAX_LOG_CHARS = 4000
MAX_FILE_CHARS = 6000
SYSTEM_PROMPT = (
    "You are a careful software engineer. You fix bugs with the smallest correct change, "
    "you never weaken tests, and you answer in the exact format requested."
)

CATEGORIES = {
    "import": ["ImportError", "ModuleNotFoundError", "cannot import name"],
    "assertion": ["AssertionError", "assert "],
    "type": ["TypeError", "unsupported operand", "not callable"],
    "value": ["ValueError", "invalid literal"],
    "key": ["KeyError"],
    "index": ["IndexError", "out of range"],
    "attribute": ["AttributeError", "has no attribute"],
    "timeout": ["Timeout", "timed out"],
}


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------

def clip(text, limit=MAX_LOG_CHARS):
    """Keep the head and the tail of a long text, which is where test output is informative."""
    if text is None:
        return ""
    text = str(text)
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + f"\n... [{len(text) - limit} characters elided] ...\n" + text[-half:]


def shell_quote(value):
    return "'" + str(value).replace("'", "'\"'\"'") + "'"


def run(command, *, timeout=120, check=False, quiet=False):
    result = bash(f"cd {shell_quote(REPO_DIR)} && {command}", timeout=timeout)
    if not quiet:
        log({"command": command, "returncode": result.returncode, "timed_out": result.timed_out})
    if check and not result.ok:
        raise RuntimeError(f"command failed ({result.returncode}): {command}\n{clip(result.output, 800)}")
    return result


def lines_of(text):
    return [line.rstrip() for line in str(text).splitlines() if line.strip()]


def unique(items):
    seen = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def parse_json_reply(reply, default=None):
    """Models wrap JSON in prose or code fences; find the outermost object and parse it."""
    text = reply.strip()
    if text.startswith("```"):
        text = "\n".join(line for line in text.splitlines() if not line.startswith("```"))
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end <= start:
        return default
    try:
        return json.loads(text[start:end + 1])
    except json.JSONDecodeError as error:
        log({"event": "bad_json", "error": str(error), "reply": clip(reply, 300)})
        return default
    except ValueError:
        return default


def ask(prompt, *, model=None, temperature=None, max_tokens=1500, system=SYSTEM_PROMPT):
    attempts = 0
    while True:
        attempts += 1
        try:
            return llm(prompt, model=model, system=system, temperature=temperature, max_tokens=max_tokens)
        except TimeoutError:
            if attempts >= 3:
                raise
            log(f"model call timed out, retrying ({attempts}/3)")


def ask_json(prompt, *, keys=(), **options):
    for attempt in range(3):
        reply = ask(prompt + "\nAnswer with one JSON object only.", **options)
        data = parse_json_reply(reply, default={})
        missing = [key for key in keys if key not in data]
        if not missing:
            return data
        prompt = f"{prompt}\nYour previous answer lacked the keys {missing}; include all of {list(keys)}."
    return {}


# ---------------------------------------------------------------------------------------------
# Understanding the failure
# ---------------------------------------------------------------------------------------------

def run_tests(extra_args=""):
    result = run(f"{TEST_COMMAND} {extra_args}".strip(), timeout=600, quiet=True)
    summary = summarize_test_output(result.output)
    summary["ok"] = result.ok
    summary["timed_out"] = result.timed_out
    return summary


def summarize_test_output(output):
    failed = []
    errors = []
    passed = 0
    for line in lines_of(output):
        if line.startswith("FAILED "):
            failed.append(line[len("FAILED "):].split(" - ")[0])
        elif line.startswith("ERROR "):
            errors.append(line[len("ERROR "):].split(" - ")[0])
        elif " passed" in line:
            words = line.replace(",", " ").split()
            for i, word in enumerate(words):
                if word == "passed" and i > 0 and words[i - 1].isdigit():
                    passed = int(words[i - 1])
    return {
        "failed": unique(failed),
        "errors": unique(errors),
        "passed": passed,
        "output": clip(output),
        "categories": categorize(output),
    }


def categorize(output):
    found = {}
    for name, needles in CATEGORIES.items():
        hits = sum(output.count(needle) for needle in needles)
        if hits:
            found[name] = hits
    return dict(sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))


def files_in_traceback(output):
    paths = []
    for line in lines_of(output):
        line = line.strip()
        if line.startswith("File \"") and "site-packages" not in line:
            path = line.split("\"")[1]
            paths.append(path)
        elif ".py:" in line and not line.startswith(" "):
            paths.append(line.split(":")[0])
    return unique([p for p in paths if p.endswith(".py") and not p.startswith("/usr/")])


def read_file(path, limit=MAX_FILE_CHARS):
    result = run(f"cat {shell_quote(path)}", quiet=True)
    return clip(result.stdout, limit) if result.ok else ""


def gather_context(summary):
    paths = files_in_traceback(summary["output"])[:6]
    tracked = lines_of(run("git ls-files '*.py' | head -200", quiet=True).stdout)
    for test_id in summary["failed"][:3]:
        test_file = test_id.split("::")[0]
        if test_file in tracked and test_file not in paths:
            paths.append(test_file)
    contents = parallel([(lambda p=p: (p, read_file(p))) for p in paths], max_parallel=4)
    return {path: text for path, text in contents if text}


def diagnose(summary, context):
    files_block = "\n\n".join(f"### {path}\n```python\n{text}\n```" for path, text in context.items())
    prompt = (
        f"Task: {TASK}\n\n"
        f"Failing tests: {', '.join(summary['failed']) or 'none listed'}\n"
        f"Error categories: {json.dumps(summary['categories'])}\n\n"
        f"Test output:\n{summary['output']}\n\n"
        f"Relevant files:\n{files_block}\n\n"
        "Give a diagnosis as JSON with keys: root_cause (str), files (list of paths to change), "
        "hypotheses (list of short strings, most likely first), risk (low|medium|high)."
    )
    diagnosis = ask_json(prompt, keys=("root_cause", "files", "hypotheses"), model=MODELS[-1], temperature=0.0)
    diagnosis.setdefault("risk", "medium")
    diagnosis["hypotheses"] = [h for h in diagnosis.get("hypotheses", []) if isinstance(h, str)][:MAX_CANDIDATES]
    return diagnosis


# ---------------------------------------------------------------------------------------------
# Candidate patches
# ---------------------------------------------------------------------------------------------

def patch_prompt(hypothesis, diagnosis, context, feedback=None):
    parts = [
        f"Task: {TASK}",
        f"Root cause (diagnosis): {diagnosis.get('root_cause', 'unknown')}",
        f"Hypothesis to pursue: {hypothesis}",
        "Files:",
    ]
    for path in diagnosis.get("files", []):
        if path in context:
            parts.append(f"--- {path}\n{context[path]}")
    if feedback:
        parts.append(f"A previous attempt failed with:\n{clip(feedback, 1500)}")
    parts.append(
        "Reply with a unified diff only, starting with '--- a/'. Do not modify tests unless the "
        "test itself is wrong, and say so in a comment line starting with '# note:' if it is."
    )
    return "\n\n".join(parts)


def extract_diff(reply):
    lines = reply.splitlines()
    start = None
    for index, line in enumerate(lines):
        if line.startswith("--- a/") or line.startswith("diff --git"):
            start = index
            break
    if start is None:
        return None
    body = [line for line in lines[start:] if not line.startswith("```")]
    return "\n".join(body) + "\n"


def apply_patch(diff):
    result = bash(f"cd {shell_quote(REPO_DIR)} && git apply --whitespace=nowarn -", input=diff, timeout=60)
    return result.ok, result.stderr


def touched_files(diff):
    names = []
    for line in diff.splitlines():
        if line.startswith("+++ b/"):
            names.append(line[len("+++ b/"):])
    return names


def score_summary(summary, baseline):
    if summary["timed_out"]:
        return -1.0
    before = len(baseline["failed"]) + len(baseline["errors"])
    after = len(summary["failed"]) + len(summary["errors"])
    fixed = max(0, before - after)
    regressions = len([t for t in summary["failed"] if t not in baseline["failed"]])
    score = fixed - 2 * regressions
    if summary["ok"]:
        score += 10
    return float(score) + summary["passed"] / 1000.0


def make_candidate(index, hypothesis, diagnosis, context, baseline):
    model = MODELS[index % len(MODELS)]
    temperature = TEMPERATURES[index % len(TEMPERATURES)]

    def candidate():
        feedback = None
        history = []
        for round_number in range(1, MAX_ROUNDS + 1):
            reply = ask(patch_prompt(hypothesis, diagnosis, context, feedback), model=model, temperature=temperature)
            diff = extract_diff(reply)
            if diff is None:
                feedback = "the reply contained no unified diff"
                history.append({"round": round_number, "applied": False, "reason": feedback})
                continue
            applied, error = apply_patch(diff)
            if not applied:
                feedback = f"git apply failed: {error}"
                history.append({"round": round_number, "applied": False, "reason": clip(error, 200)})
                continue
            summary = run_tests()
            history.append({"round": round_number, "applied": True, "failed": len(summary["failed"])})
            if summary["ok"]:
                return {"diff": diff, "summary": summary, "history": history, "model": model}
            feedback = summary["output"]
            run("git checkout -- . && git clean -fdq", quiet=True)
        return {"diff": None, "summary": None, "history": history, "model": model}

    return candidate


def validate_candidate(result):
    if result is None or result.get("diff") is None:
        return 0.0
    return score_summary(result["summary"], BASELINE)


# ---------------------------------------------------------------------------------------------
# Review and refinement
# ---------------------------------------------------------------------------------------------

def review(diff, summary):
    prompt = (
        f"Review this patch for the task '{TASK}'.\n\n{diff}\n\n"
        f"Tests after the patch: {'all pass' if summary['ok'] else 'some fail'}; "
        f"{summary['passed']} passed.\n"
        "Answer as JSON with keys: verdict (accept|revise|reject), concerns (list of str), "
        "suggestion (str)."
    )
    verdicts = parallel(
        [lambda m=m: ask_json(prompt, keys=("verdict",), model=m, temperature=0.0) for m in MODELS]
    )
    counts = {}
    for verdict in verdicts:
        label = str(verdict.get("verdict", "revise")).lower()
        counts[label] = counts.get(label, 0) + 1
    concerns = unique([c for v in verdicts for c in v.get("concerns", []) if isinstance(c, str)])
    decision = max(counts, key=lambda label: (counts[label], label == "accept")) if counts else "revise"
    return {"decision": decision, "counts": counts, "concerns": concerns}


def refine(best, verdict):
    concerns = "\n".join(f"- {c}" for c in verdict["concerns"][:8]) or "- none given"

    def attempt():
        reply = ask(
            f"Improve this patch. Reviewers raised:\n{concerns}\n\nPatch:\n{best['diff']}\n\n"
            "Reply with a complete replacement unified diff.",
            model=MODELS[-1],
            temperature=0.2,
        )
        diff = extract_diff(reply)
        if diff is None:
            return None
        run("git checkout -- .", quiet=True)
        applied, error = apply_patch(diff)
        if not applied:
            return None
        summary = run_tests()
        return {"diff": diff, "summary": summary, "history": best["history"], "model": MODELS[-1]}

    outcome = branch([attempt], validate=validate_candidate, reduce="best", adopt=True)
    return outcome if outcome is not None else best


# ---------------------------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------------------------

def format_table(rows, headers):
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(str(cell)))
    line = " | ".join(f"{h:<{w}}" for h, w in zip(headers, widths))
    rule = "-+-".join("-" * w for w in widths)
    body = [" | ".join(f"{str(c):<{w}}" for c, w in zip(row, widths)) for row in rows]
    return "\n".join([line, rule] + body)


def describe_history(history):
    steps = []
    for entry in history:
        if entry.get("applied"):
            steps.append(f"round {entry['round']}: applied, {entry['failed']} failing")
        else:
            steps.append(f"round {entry['round']}: {entry.get('reason', 'not applied')}")
    return "; ".join(steps) if steps else "no attempts"


def build_report(baseline, diagnosis, candidates, chosen, verdict):
    rows = []
    for index, result in enumerate(candidates):
        status = "fixed" if result and result.get("diff") else "failed"
        score = validate_candidate(result)
        rows.append((index, result.get("model", "?") if result else "?", status, f"{score:.3f}"))
    report = {
        "task": TASK,
        "baseline": {"failed": baseline["failed"], "errors": baseline["errors"], "passed": baseline["passed"]},
        "diagnosis": diagnosis,
        "candidates": len(candidates),
        "table": format_table(rows, ["#", "model", "status", "score"]),
        "chosen": None,
        "review": verdict,
    }
    if chosen is not None and chosen.get("diff"):
        report["chosen"] = {
            "model": chosen["model"],
            "files": touched_files(chosen["diff"]),
            "history": describe_history(chosen["history"]),
            "lines_changed": len([l for l in chosen["diff"].splitlines() if l[:1] in ("+", "-")]),
        }
    return report


def print_report(report):
    print(f"Task: {report['task']}")
    base = report["baseline"]
    print(f"Baseline: {len(base['failed'])} failed, {len(base['errors'])} errors, {base['passed']} passed")
    print(f"Diagnosis: {report['diagnosis'].get('root_cause', 'unknown')} (risk {report['diagnosis']['risk']})")
    print()
    print(report["table"])
    print()
    chosen = report["chosen"]
    if chosen is None:
        print("No candidate fixed the tests.")
    else:
        print(f"Chosen patch from {chosen['model']}: {', '.join(chosen['files'])}")
        print(f"  {chosen['lines_changed']} lines changed; {chosen['history']}")
    if report["review"]:
        counts = ", ".join(f"{k}={v}" for k, v in sorted(report["review"]["counts"].items()))
        print(f"Review: {report['review']['decision']} ({counts})")
        for concern in report["review"]["concerns"][:5]:
            print(f"  - {concern}")


# ---------------------------------------------------------------------------------------------
# Main flow
# ---------------------------------------------------------------------------------------------

def ensure_clean_tree():
    status = run("git status --porcelain", quiet=True)
    dirty = lines_of(status.stdout)
    if dirty:
        log({"event": "dirty_tree", "files": dirty[:20]})
        run("git stash push --include-untracked -m baton-before-fix", check=True)
    return len(dirty)


def choose_hypotheses(diagnosis, summary):
    hypotheses = list(diagnosis["hypotheses"])
    if not hypotheses:
        hypotheses = [f"the failure is a {kind} problem" for kind in summary["categories"]]
    while len(hypotheses) < MAX_CANDIDATES:
        hypotheses.append(f"alternative fix #{len(hypotheses) + 1} for: {diagnosis.get('root_cause', TASK)}")
    return hypotheses[:MAX_CANDIDATES]


def tournament(candidates):
    """Pairwise comparison of finished candidates; returns the winner or None."""
    pool = [c for c in candidates if c is not None and c.get("diff")]
    rounds = 0
    while len(pool) > 1:
        rounds += 1
        next_pool = []
        for i in range(0, len(pool) - 1, 2):
            left, right = pool[i], pool[i + 1]
            left_score = score_summary(left["summary"], BASELINE)
            right_score = score_summary(right["summary"], BASELINE)
            if abs(left_score - right_score) > 0.5:
                next_pool.append(left if left_score > right_score else right)
                continue
            verdict = ask_json(
                f"Two patches fix the same bug.\n\nA:\n{left['diff']}\n\nB:\n{right['diff']}\n\n"
                "Which is smaller, clearer and safer? Answer JSON with key winner (A or B).",
                keys=("winner",),
                model=MODELS[-1],
                temperature=0.0,
            )
            next_pool.append(right if verdict.get("winner") == "B" else left)
        if len(pool) % 2 == 1:
            next_pool.append(pool[-1])
        pool = next_pool
        log({"event": "tournament_round", "round": rounds, "remaining": len(pool)})
    return pool[0] if pool else None


stashed = ensure_clean_tree()
BASELINE = run_tests()
log({"event": "baseline", "failed": len(BASELINE["failed"]), "errors": len(BASELINE["errors"])})

if BASELINE["ok"]:
    print("The test suite already passes; nothing to do.")
else:
    context = gather_context(BASELINE)
    diagnosis = diagnose(BASELINE, context)
    log({"event": "diagnosis", "root_cause": diagnosis.get("root_cause"), "files": diagnosis.get("files", [])})
    for path in diagnosis.get("files", []):
        if path not in context:
            text = read_file(path)
            if text:
                context[path] = text

    hypotheses = choose_hypotheses(diagnosis, BASELINE)
    candidate_fns = [make_candidate(i, h, diagnosis, context, BASELINE) for i, h in enumerate(hypotheses)]
    results = branch(
        candidate_fns,
        validate=validate_candidate,
        reduce="all",
        stop_early=False,
        max_parallel=min(4, len(candidate_fns)),
        adopt=False,
    )
    candidates = [r for r in results] if isinstance(results, list) else [results]
    winner = tournament(candidates)

    verdict = None
    if winner is not None:
        apply_ok, apply_error = apply_patch(winner["diff"])
        if not apply_ok:
            raise RuntimeError(f"the winning patch no longer applies: {apply_error}")
        verdict = review(winner["diff"], winner["summary"])
        if verdict["decision"] == "revise":
            winner = refine(winner, verdict)
        elif verdict["decision"] == "reject":
            log({"event": "rejected_by_review", "concerns": verdict["concerns"]})
            run("git checkout -- .", quiet=True)
            winner = None

    report = build_report(BASELINE, diagnosis, candidates, winner, verdict)
    print_report(report)
    log({"event": "report", "report": json.dumps(report, sort_keys=True)[:MAX_LOG_CHARS]})

if stashed:
    restored = run("git stash pop", quiet=True)
    if not restored.ok:
        print(f"warning: could not restore the stashed changes: {clip(restored.stderr, 300)}")
