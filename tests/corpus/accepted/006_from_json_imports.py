# from json import loads, dumps, JSONDecodeError with aliases
from json import loads, dumps as to_json, JSONDecodeError
from baton import bash

raw = bash("cat package.json").stdout
try:
    manifest = loads(raw)
except JSONDecodeError:
    manifest = {}

scripts = manifest.get("scripts", {})
summary = {name: cmd.split()[0] for name, cmd in scripts.items() if cmd}
print(to_json(summary, sort_keys=True))
