# expect: B207
# nonlocal at module level
nonlocal x
x = 1
