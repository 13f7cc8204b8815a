# single-underscore names and the throwaway _ are ordinary identifiers
from baton import llm, bash

_cache = {}
_MAX = 3


def _cached_llm(prompt):
    if prompt not in _cache:
        _cache[prompt] = llm(prompt)
    return _cache[prompt]


for _ in range(_MAX):
    _cached_llm("Name one risk in this repository.")

_x_ = 1
__ok = 2
status_, _tmp = bash("true").ok, 0
print(len(_cache), _x_ + __ok, status_, _tmp)
