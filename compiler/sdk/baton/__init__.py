"""The Baton SDK as seen by editors, type checkers and CPython.

A plan's whole view of the world is `from baton import bash, llm, branch, parallel, log, inputs`
(see DESIGN.md). Inside Baton these are host calls of the compiled plan. This module only
describes them: put `plans/` on PYTHONPATH (or your editor's extra paths) for completion and
type checking. Calling them under CPython raises, because a plan's effects are Baton's to grant.
"""

from typing import Any, Callable, Optional, Sequence, Union

__all__ = [
    "bash",
    "llm",
    "branch",
    "parallel",
    "log",
    "inputs",
    "BashResult",
    "Outcome",
    "BudgetExceeded",
    "LLMError",
    "SandboxError",
    "BranchError",
]

_NOT_IN_BATON = "this is Baton's SDK stub; run the plan with `baton run PLAN.py`"


class BudgetExceeded(Exception):
    """A model call would exceed the run's budget (calls, tokens or cost). Raised before the
    request is sent; uncaught, the run ends with exit 4 naming the budget."""


class LLMError(Exception):
    """A model call failed: the provider refused it, kept failing after retries, or sent an
    unusable response; or `llm` is not granted to the run."""


class SandboxError(Exception):
    """A command could not be run: the sandbox could not be set up (it fails closed), or `bash`
    is not granted to the run."""


class BranchError(Exception):
    """`branch` could not give a result: no branch produced a valid one (the message says what
    each did), branches nested deeper than `[branch] max_depth`, or the chosen branch's changes
    could not be applied to the workspace."""


class BashResult:
    """What `bash` returns. `str(result)` is `result.output`."""

    stdout: str
    stderr: str
    returncode: int
    timed_out: bool
    ok: bool  # returncode == 0 and not timed_out
    output: str  # stdout followed by stderr


class Outcome:
    """One branch's outcome, as given to reducers and returned by `reduce="all"`."""

    index: int
    branch: str  # the branch's name in journal, trace and report: "3.0" is branch 0 of call #3
    label: str  # the plan's `labels=` entry for it, else its callable's name
    ok: bool  # the callable (and validator) returned without raising
    valid: bool  # ok, and the validator accepted the value (always, without a validator)
    value: Any
    score: Optional[float]  # the validator's number (bool: 1.0 or 0.0)
    error: Optional[str]  # "Type: message"; Cancelled, Stuck, LimitExceeded, Trap from the host
    error_type: Optional[str]
    error_message: Optional[str]
    exception: Optional[BaseException]
    traceback: Optional[str]  # the branch's traceback when it raised, as CPython prints one
    cancelled: bool
    chosen: bool
    adopted: Optional[int]  # paths changed in the parent's workspace, for the chosen branch
    cost: float
    tokens: int
    steps: int  # bash and llm calls made
    seconds: float
    trace: list  # {"call", "request", "ok", "reply", "seconds"} of the first 64 calls


inputs: dict = {}
"""The run's inputs."""


def bash(command: str, *, timeout: float = 60, input: Optional[str] = None) -> BashResult:
    """Run `bash -c command` in the workspace (the cwd), inside the OS sandbox; `input` is
    fed on stdin. A non-zero exit is a result (`.ok` False), not an exception."""
    raise RuntimeError(_NOT_IN_BATON)


def llm(
    prompt: Union[str, Sequence[dict]],
    *,
    model: Optional[str] = None,
    system: Optional[str] = None,
    temperature: Optional[float] = None,
    max_tokens: Optional[int] = None,
    stop: Optional[Sequence[str]] = None,
) -> str:
    """One chat completion: `prompt` is a str (one user message) or a list of
    {"role", "content"} dicts; returns the reply's text. Tokens and cost are charged to the
    run's budget; raises LLMError when the call fails, BudgetExceeded before one the budget
    cannot pay."""
    raise RuntimeError(_NOT_IN_BATON)


def branch(
    fns: Union[Callable[[], Any], Sequence[Callable[[], Any]]],
    *,
    n: Optional[Union[int, str]] = None,
    validate: Optional[Callable[[Any], Union[bool, float]]] = None,
    reduce: Union[str, Callable[[list], Any]] = "first_valid",
    stop_early: bool = True,
    max_parallel: Optional[int] = None,
    budget: Optional[Union[float, dict]] = None,
    adopt: bool = True,
    priors: Optional[dict] = None,
    labels: Optional[Sequence[str]] = None,
) -> Any:
    """Run each callable in its own fresh instance and copy-on-write workspace, then reduce:
    `validate(value)` returns a bool or a score; `reduce` is "first_valid" (the first valid
    value, in time), "best" (highest score), "vote" (most common valid value), "all" (the list
    of Outcome records) or a function of that list; `n=k` runs one callable k times
    (`n="auto"`: in waves the budget pays for); `stop_early` cancels the rest once decided;
    `adopt` applies the chosen branch's workspace changes here; `labels` names the branches in
    the trace and report. A branch that makes the same bash or llm request three times in a
    row is stopped as Stuck (`[branch] stuck_repeats`): vary a polling command. Raises
    BranchError when nothing valid came back."""
    raise RuntimeError(_NOT_IN_BATON)


def parallel(
    fns: Sequence[Callable[[], Any]],
    *,
    max_parallel: Optional[int] = None,
    labels: Optional[Sequence[str]] = None,
) -> list:
    """Run callables concurrently, each in its own instance and workspace copy, and return
    their results in order; the first (by position) that raised has its exception raised
    here, caused by a BranchTraceback whose message is the branch's traceback."""
    raise RuntimeError(_NOT_IN_BATON)


def log(*values: Any) -> None:
    """Write one line (the values' str() joined by spaces) to the run's log (`log.txt` in the
    run directory; echoed on stderr unless `baton run --quiet`)."""
    raise RuntimeError(_NOT_IN_BATON)
