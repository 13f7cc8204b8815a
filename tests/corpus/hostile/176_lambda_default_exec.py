# expect: B202
# exec captured by a lambda default
run = lambda code, f=exec: f(code)
run("x = 1")
