# expect: B401
# keyword field with string index
cfg = {"token": "secret"}
print("{c[token]}".format(c=cfg))
