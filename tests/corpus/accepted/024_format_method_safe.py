# str.format with positional, keyword, spec and nested-spec fields only
from baton import bash, log

name = "tests"
passed, failed = 41, 2
ratio = passed / (passed + failed)
width = 12
print("{} passed, {} failed".format(passed, failed))
print("{0} / {1} / {0}".format("a", "b"))
print("{name}: {ok:>5} ok, {bad:<3} bad".format(name=name, ok=passed, bad=failed))
print("{0:.3f} {1:,} {2:08.2f}".format(ratio, 1234567, 3.14159))
print("{:[^10}".format("mid"))
print("{0!s:.>8}|{1!r}".format("x", "y"))
print("{:{w}}|".format(name, w=width))
print("{0:{1}}|".format(name, width))
print("{{literal braces}} {}".format(1))
print("report-{}.py".format(name))
print(str.format("{} tests", passed + failed))
template = "{stage}: {status}"
print(template.format(stage="build", status="ok"))
log("summary", "{}/{}".format(passed, passed + failed))
print("{who} scored {pct:.1%}".format_map({"who": "plan", "pct": ratio}))
