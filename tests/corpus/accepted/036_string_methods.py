# string processing of a changelog
from baton import bash, log

text = bash("cat CHANGELOG.md || true").stdout
sections = {}
current = None
for raw in text.splitlines():
    line = raw.rstrip()
    if line.startswith("## "):
        current = line[3:].strip().lower()
        sections[current] = []
    elif current and line.lstrip().startswith(("-", "*")):
        item = line.lstrip("-* ").replace("`", "")
        sections[current].append(item)

version, sep, rest = "v1.4.2-rc1".partition("-")
print(version.lstrip("v").split("."), sep, rest.upper())
print("baton".center(11, "*"), "Plan".ljust(6, ".") + "|", "x".rjust(3, "0"))
print(",".join(sorted(sections)), text.count("\n"), text.find("##"))
log("sections", {k: len(v) for k, v in sections.items()})
print("Fix: crash".title(), "  spaced  ".strip(), "a-b-c".rsplit("-", 1))
