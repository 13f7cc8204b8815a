# dictionary bookkeeping of failing tests
from baton import bash

failures = {}
out = bash("pytest -q 2>&1 | grep FAILED || true").stdout
for line in out.splitlines():
    test = line.replace("FAILED ", "").split(" - ")[0]
    module, _, name = test.partition("::")
    failures.setdefault(module, []).append(name)

counts = {m: len(ns) for m, ns in failures.items()}
counts.update({"total": sum(counts.values())})
total = counts.pop("total")
worst = sorted(counts, key=counts.get, reverse=True)
keys = list(counts.keys())
values = list(counts.values())
if "tests/test_cli.py" in failures:
    del failures["tests/test_cli.py"]
print(total, worst[:3], keys == list(counts), len(values), failures.get("nope", []))
