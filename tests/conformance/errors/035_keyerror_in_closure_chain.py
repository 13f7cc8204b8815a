def make_getter(table):
    def get(key):
        return table[key]
    return get
def run(keys):
    get = make_getter({"a": 1, "b": 2})
    return [get(k) for k in keys]
print(run(["a", "b"]))
print(run(["a", "zzz"]))
