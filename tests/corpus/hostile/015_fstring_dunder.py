# expect: B205
# attribute walk inside an f-string replacement field
x = 1
print(f"{x.__class__.__base__}")
