# The CPython side of baton-difftest (src/oracle.rs): runs plans one after another, each as if
# it were `python3 -s -P plan.py`, and answers with one JSON line per plan.
import builtins
import io
import json
import resource
import signal
import sys
import traceback

PROTO_IN = sys.stdin
PROTO_OUT = sys.stdout
DEFAULT_RECURSION_LIMIT = sys.getrecursionlimit()
PROBE = """
def depth(n):
    try:
        return depth(n + 1)
    except RecursionError:
        return n
found = depth(1)
"""


def calibrated_limit():
    """The recursion limit that gives a plan run by `exec` here the depth it has when run as
    `python3 plan.py` (where `depth(1)` above finds the default limit minus one, the module's
    frame). This worker's frames and the exec call count against the limit too; measuring
    beats counting them, which differs between interpreter builds."""
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    sys.setrecursionlimit(DEFAULT_RECURSION_LIMIT)
    exec(compile(PROBE, "probe.py", "exec"), namespace)
    return DEFAULT_RECURSION_LIMIT + (DEFAULT_RECURSION_LIMIT - 1 - namespace["found"])


class PlanTimeout(BaseException):
    pass


def on_alarm(signum, frame):
    raise PlanTimeout()


signal.signal(signal.SIGALRM, on_alarm)
# A plan that makes CPython itself take unbounded memory (some patterns do, in sre of 3.11)
# ends in MemoryError instead of taking the machine.
_soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
if _hard == resource.RLIM_INFINITY or _hard > 4 << 30:
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, _hard))
RECURSION_LIMIT = calibrated_limit()


class Stdout(io.TextIOWrapper):
    """A plan's stdout as `python3 plan.py` has it under the oracle's environment: UTF-8 with
    errors 'strict', each write encoded as it is made (a str holding a lone surrogate raises
    UnicodeEncodeError, after what was written before it), kept in memory."""

    def __init__(self):
        super().__init__(io.BytesIO(), encoding="utf-8", errors="strict", newline="\n",
                         write_through=True)

    def getvalue(self):
        self.flush()
        return self.buffer.getvalue().decode("utf-8")


def run(src, timeout):
    # A fresh process has an empty `re` cache; a plan run before this one must not have filled
    # it (re.compile(p, -0.0) returns a cached pattern compiled with flags 0 instead of raising).
    if "re" in sys.modules:
        sys.modules["re"].purge()
    buf = Stdout()
    try:
        code = compile(src, "plan.py", "exec")
    except SyntaxError as e:
        return buf, "syntax", traceback.format_exception_only(type(e), e)[-1].rstrip("\n")
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    status, exc = "ok", None
    sys.setrecursionlimit(RECURSION_LIMIT)
    sys.stdout = buf
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        exec(code, namespace)
    except PlanTimeout:
        status = "timeout"
    except BaseException as e:
        status = "raised"
        exc = traceback.format_exception_only(type(e), e)[-1].rstrip("\n")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout = PROTO_OUT
    namespace.clear()
    return buf, status, exc


for line in PROTO_IN:
    request = json.loads(line)
    try:
        buf, status, exc = run(request["src"], float(request.get("timeout", 10)))
    except PlanTimeout:
        buf, status, exc = Stdout(), "timeout", None
    PROTO_OUT.write(json.dumps({"out": buf.getvalue(), "status": status, "exc": exc}) + "\n")
    PROTO_OUT.flush()
