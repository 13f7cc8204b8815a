# expect: B204
# the __builtins__ global as a dict of everything
e = __builtins__["eval"]
e("1")
