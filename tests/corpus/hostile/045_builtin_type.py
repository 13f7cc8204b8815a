# expect: B202
# forbidden builtin type called by name
type("X", (), {})
