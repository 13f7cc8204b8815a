class Agent:
    pass

async def fetch():
    await other()

with open("notes.txt") as handle:
    data = handle.read()

def gen():
    yield 1

raw = b"bytes"
