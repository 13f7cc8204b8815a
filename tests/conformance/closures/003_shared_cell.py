def pair():
    value = 0
    def get():
        return value
    def put(v):
        nonlocal value
        value = v
    return get, put
get, put = pair()
print(get())
put(42)
print(get())
get2, put2 = pair()
put2("other")
print(get(), get2())
