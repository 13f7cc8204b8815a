# typing: the names models write above their code import, and annotations that use them run.
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union, Mapping
from typing import cast, TYPE_CHECKING
import typing


def parse(lines: List[str], sep: str = ":") -> Dict[str, str]:
    out: Dict[str, str] = {}
    for line in lines:
        key, _, value = line.partition(sep)
        out[key.strip()] = value.strip()
    return out


def first(items: Sequence[int], pred: Optional[Callable[[int], bool]] = None) -> Optional[int]:
    for item in items:
        if pred is None or pred(item):
            return item
    return None


def pair(a: Union[int, str], b: Any) -> Tuple[Any, Any]:
    return (a, b)


counts: Mapping[str, int] = {"a": 1}
seen: Set[int] = set()
print(parse(["a: 1", "b: two"]), first([1, 2, 3], lambda x: x > 1), first([]), pair(1, "x"), counts)
print(cast(int, "not checked"), TYPE_CHECKING, typing.cast(List[int], [1]))
print(isinstance([1], List), isinstance({}, Dict), isinstance((1,), Tuple), isinstance(seen, Set))
# A type alias is evaluated: subscripts of the builtin generics and the typing forms run.
Json = Dict[str, Any]
Handler = Callable[[str], Optional[int]]
Pairs = list[tuple[str, int]]
print(dict[str, int]({"a": 1}), list[int]("ab"))
try:
    int[0]
except TypeError as e:
    print(repr(e))
# typing.FrozenSet stands for frozenset, as in CPython.
print(isinstance(frozenset([1]), typing.FrozenSet), isinstance({1}, typing.FrozenSet))
