# expect: B401
# an f-string with only escaped braces is a constant template with an attribute field
print(f"{{0.__class__}}".format(1))
