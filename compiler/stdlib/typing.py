"""typing for plans: the names annotations use. Annotations are evaluated (as CPython evaluates
them) and not kept, so each name only has to exist and take a subscript; the container names are the builtin types they stand for (so
`isinstance(x, List)` works). The special forms (Any, Optional, Union, Callable, ...) are the
runtime's type objects `typing.<name>`, which a subscript leaves as they are, as it leaves
`list[int]`: a type alias such as `Json = Dict[str, Any]` runs."""

TYPE_CHECKING = False

List = list
Dict = dict
Tuple = tuple
Set = set
FrozenSet = frozenset


def cast(typ, val):
    """Returns `val` unchanged, as typing.cast does."""
    return val
