"""Test-time compute strategies, written in the plan language: `from baton.ttc import ...`.

- `best_of(fn, n, validate)`: n attempts side by side, the best by `validate`.
- `summarize(outcome)`: a structured summary of a branch (diagnosis, what was tried,
  progress, failure modes) that a judge or a later attempt can read.
- `tournament(items, *, question, group=2, votes=8)`: recursive tournament voting; each match's
  judges vote in parallel and stop as soon as the match is decided.
- `refine(step, *, n=16, k=4)`: parallel-distill-refine: n rollouts, k of their summaries
  chosen by tournament, n fresh rollouts given those summaries, and a final tournament.

Baton compiles this file into the plans that import from it; under CPython it runs against the
SDK stub in this directory.
"""

from baton import branch, llm, BranchError
import json

VOTE_INSTRUCTION = "Answer with the number of the best candidate and nothing else."


def best_of(fn, n, validate, *, max_parallel=None):
    """Runs `fn` n times in parallel branches and returns the value `validate` scores highest
    (a bool counts as 1 or 0). Raises BranchError when no attempt is valid."""
    return branch(fn, n=n, validate=validate, reduce="best", max_parallel=max_parallel)


def _show(item):
    if isinstance(item, str):
        return item
    try:
        return json.dumps(item, indent=1, sort_keys=True)
    except TypeError:
        return repr(item)


def _first_number(text):
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        elif digits:
            break
    if digits == "":
        return None
    return int(digits)


def _vote(prompt, count, judge, model):
    def ask():
        reply = llm(prompt + f"\n\n(judge {judge})", model=model, temperature=0.7, max_tokens=16)
        number = _first_number(reply)
        if number is None or number < 1 or number > count:
            return None
        return number - 1
    return ask


def _match(candidates, question, votes, model, max_parallel):
    """The index of the candidate the judges prefer: `votes` judges in parallel, stopping once
    no remaining vote could change the majority. A judge whose answer is not a candidate's
    number does not vote; with no vote at all the first candidate wins."""
    if len(candidates) == 1:
        return 0
    parts = [question]
    for i, candidate in enumerate(candidates):
        parts.append(f"Candidate {i + 1}:\n{_show(candidate)}")
    parts.append(VOTE_INSTRUCTION)
    prompt = "\n\n".join(parts)
    judges = [_vote(prompt, len(candidates), j + 1, model) for j in range(votes)]
    try:
        return branch(
            judges,
            validate=lambda choice: choice is not None,
            reduce="vote",
            stop_early=True,
            max_parallel=max_parallel,
            adopt=False,
            labels=[f"judge {j + 1}" for j in range(votes)],
        )
    except BranchError:
        return 0


def tournament(items, *, question, group=2, votes=8, model=None, max_parallel=None):
    """The item that wins a recursive tournament: items meet in groups of `group` (the last
    group may be smaller; a lone item advances), each group's judges vote on `question`, and
    the winners meet again until one is left. Returns that item."""
    if len(items) == 0:
        raise ValueError("tournament() needs at least one item")
    if group < 2:
        raise ValueError("tournament() group must be at least 2")
    if votes < 1:
        raise ValueError("tournament() votes must be at least 1")
    round_items = list(items)
    while len(round_items) > 1:
        winners = []
        for start in range(0, len(round_items), group):
            candidates = round_items[start:start + group]
            winners.append(candidates[_match(candidates, question, votes, model, max_parallel)])
        round_items = winners
    return round_items[0]


def _tried(outcome):
    tried = []
    for call in outcome.trace:
        if "call" in call:
            tried.append(call["call"] + " " + call["request"][:120])
    return tried


def summarize(outcome, *, model=None, use_model=True):
    """A structured summary of a branch's outcome, as a dict: `diagnosis` (what the attempt
    found), `tried` (its host calls), `progress` (how far it got), `failure_modes` (what went
    wrong), plus `index`, `ok`, `valid` and `score`. With `use_model`, a model writes the
    diagnosis and failure modes from the outcome; otherwise (or if its answer is not the JSON
    asked for) they are derived from the outcome alone."""
    tried = _tried(outcome)
    if outcome.valid:
        progress = "finished and passed validation"
    elif outcome.ok:
        progress = "finished, but validation rejected the result"
    elif outcome.cancelled:
        progress = "cancelled before it finished"
    else:
        progress = "failed: " + str(outcome.error)
    summary = {
        "index": outcome.index,
        "ok": outcome.ok,
        "valid": outcome.valid,
        "score": outcome.score,
        "diagnosis": _show(outcome.value)[:2000] if outcome.ok else str(outcome.error),
        "tried": tried,
        "progress": progress,
        "failure_modes": [] if outcome.valid else [progress],
    }
    if not use_model:
        return summary
    prompt = (
        "Summarize this attempt for an engineer choosing between attempts. Reply with JSON "
        "with the keys \"diagnosis\" (a string) and \"failure_modes\" (a list of strings).\n\n"
        + f"Result: {_show(outcome.value)[:4000] if outcome.ok else outcome.error}\n"
        + f"Progress: {progress}\n"
        + "Steps:\n" + "\n".join(tried[:40])
    )
    try:
        written = json.loads(llm(prompt, model=model, temperature=0))
    except ValueError:
        return summary
    if isinstance(written, dict):
        if isinstance(written.get("diagnosis"), str):
            summary["diagnosis"] = written["diagnosis"]
        modes = written.get("failure_modes")
        if isinstance(modes, list) and all(isinstance(m, str) for m in modes):
            summary["failure_modes"] = modes
    return summary


def refine(step, *, n=16, k=4, validate=None, question="Which attempt makes the most progress "
           "toward the goal?", votes=8, model=None, max_parallel=None):
    """Parallel-distill-refine. `step(context)` makes one attempt; `context` is a list of
    summaries of earlier attempts ([] at first). Runs n attempts, summarizes them, chooses k
    summaries (one tournament in each of k groups), runs n fresh attempts given those k, and
    returns the value of the attempt a final tournament prefers among those that succeeded
    (validated, when `validate` is given). Raises BranchError when none succeeded."""
    if n < 1 or k < 1:
        raise ValueError("refine() needs n and k of at least 1")
    first = branch(lambda: step([]), n=n, validate=validate, reduce="all", adopt=False,
                   max_parallel=max_parallel)
    summaries = [summarize(o, model=model) for o in first]
    size = max(1, (len(summaries) + k - 1) // k)
    chosen = []
    for start in range(0, len(summaries), size):
        chosen.append(tournament(summaries[start:start + size], question=question,
                                 votes=votes, model=model, max_parallel=max_parallel))
    second = branch(lambda: step(chosen), n=n, validate=validate, reduce="all", adopt=False,
                    max_parallel=max_parallel)
    good = [o.value for o in second if o.valid]
    if len(good) == 0:
        raise BranchError(f"refine(): none of the {n} refined attempts succeeded")
    return tournament(good, question=question, votes=votes, model=model,
                      max_parallel=max_parallel)
