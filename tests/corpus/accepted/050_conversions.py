# type conversions and repr of plan values
from baton import bash, log

pid_text = bash("echo 4242").stdout.strip()
pid = int(pid_text)
load = float(bash("echo 0.75").stdout)
flags = [bool(x) for x in (0, 1, "", "x", [], [0])]
as_text = [str(v) for v in (1, 2.5, None, True)]
print(pid + 1, load * 2, flags, as_text, repr("quote's"))
print(tuple([1, 2]), list((3, 4)), dict([("a", 1)]), set("aab"), list(range(10, 0, -3)))
log("converted", pid, load)
