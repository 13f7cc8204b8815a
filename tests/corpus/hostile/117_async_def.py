# expect: B302
# async def
async def f():
    return 1
