# expect: B302
# await at module level
x = await print
