# expect: B202
# forbidden builtin compile called by name
compile("1", "<s>", "eval")
