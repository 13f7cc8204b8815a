# expect: B202
# forbidden builtin memoryview called by name
memoryview("x")
