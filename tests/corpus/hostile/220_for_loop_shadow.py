# expect: B202
# a for loop over nothing never binds getattr, so the builtin is reached
for getattr in []:
    pass
print(getattr(1, 'real'))
