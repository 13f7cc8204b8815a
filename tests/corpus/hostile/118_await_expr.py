# expect: B302
# await inside async def
async def f(x):
    return await x
