# frozenset is a supported builtin: an immutable set, hashable, usable as a dict key.
seen = {frozenset(["a", "b"]): 1}
print(seen[frozenset(["b", "a"])], frozenset() | {1})
