# expect: B202
# eval called inside an f-string replacement field
print(f"{eval('1 + 1')}")
