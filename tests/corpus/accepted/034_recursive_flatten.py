# recursive helpers with isinstance checks
import json
from baton import bash


def flatten(value, prefix=""):
    if isinstance(value, dict):
        out = {}
        for key, inner in value.items():
            out.update(flatten(inner, f"{prefix}{key}."))
        return out
    if isinstance(value, (list, tuple)):
        out = {}
        for i, inner in enumerate(value):
            out.update(flatten(inner, f"{prefix}{i}."))
        return out
    return {prefix[:-1]: value}


def depth(value):
    if isinstance(value, dict):
        return 1 + max([depth(v) for v in value.values()] or [0])
    if isinstance(value, list):
        return 1 + max([depth(v) for v in value] or [0])
    return 0


data = json.loads(bash("cat tsconfig.json || echo {}").stdout)
for key, value in sorted(flatten(data).items()):
    print(key, "=", value)
print("depth", depth(data))
