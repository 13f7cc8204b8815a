# expect: B205
# lambda.__globals__['__builtins__'] to recover eval
ev = (lambda: 0).__globals__["__builtins__"]["eval"]
print(ev("1+1"))
