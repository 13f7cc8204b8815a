# expect: B202
# forbidden builtin object called by name
object()
