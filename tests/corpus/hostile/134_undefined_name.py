# expect: B201
# a name bound nowhere
print(secret_token)
