# expect: B205, B206
# code object constants via __code__.co_consts
def secret():
    return "token-123"

print(secret.__code__.co_consts)
