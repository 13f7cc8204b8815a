from baton import bash, llm

def summarize(text):
    reply = llm(f"Summarize: {text}")
    return reslt

tests = bsah("pytest -q")
print(eval(tests.stdout), bytearray(()))
def init(__x__):
    return ().__class__.__bases__[0]
