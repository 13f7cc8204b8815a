# expect: B302
# async for
async def f(xs):
    async for x in xs:
        print(x)
