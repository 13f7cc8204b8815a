# expect: B206
# gi_code.co_names from a generator expression
print((x for x in [1]).gi_code.co_names)
