# expect: B303
# yield at module level
yield 1
