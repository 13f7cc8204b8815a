"""typing for plans: the names annotations use. Baton does not evaluate annotations, so each
name only has to exist; the container names are the builtin types they stand for (so
`isinstance(x, List)` works), the others are their own names as strings."""

TYPE_CHECKING = False

List = list
Dict = dict
Tuple = tuple
Set = set
FrozenSet = set
Type = "typing.Type"
Any = "typing.Any"
Callable = "typing.Callable"
Generator = "typing.Generator"
Iterable = "typing.Iterable"
Iterator = "typing.Iterator"
Literal = "typing.Literal"
Mapping = "typing.Mapping"
Optional = "typing.Optional"
Sequence = "typing.Sequence"
Union = "typing.Union"


def cast(typ, val):
    """Returns `val` unchanged, as typing.cast does."""
    return val
