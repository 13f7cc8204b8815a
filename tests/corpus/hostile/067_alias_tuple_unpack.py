# expect: B202
# compile and eval unpacked from a tuple
c, e = compile, eval
print(e(c("1", "s", "eval")))
