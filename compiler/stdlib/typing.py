"""typing for plans: the names annotations use. Baton does not evaluate annotations, so each
name only has to exist; the container names are the builtin types they stand for (so
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
