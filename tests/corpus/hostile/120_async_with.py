# expect: B302
# async with
async def f(cm):
    async with cm as c:
        print(c)
