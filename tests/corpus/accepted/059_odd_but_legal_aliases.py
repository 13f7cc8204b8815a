# allowed imports under alarming aliases, and forbidden-builtin names bound as function locals
from baton import bash as system, llm as ask, log
from json import loads as unpickle, dumps as dump_everything
import json as os


def tools():
    eval = log
    compile = unpickle
    open = dump_everything
    eval("aliases are the plan's own bindings")
    data = compile(system("echo '[1, 2, 3]'").stdout)
    return open(data), os.dumps({"n": len(data)})


print(*tools())
print(ask("Say hi", max_tokens=5))
