# expect: B202
# forbidden builtin locals called by name
locals()
