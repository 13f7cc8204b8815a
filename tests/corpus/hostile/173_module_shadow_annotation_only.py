# expect: B202
# an annotation without a value does not bind the name at module level
exec: int
exec("x = 1")
