def lookup(table, key):
    if key not in table:
        raise KeyError(key)
    return table[key]
t = {"x": 1}
print(lookup(t, "x"))
lookup(t, "y")
