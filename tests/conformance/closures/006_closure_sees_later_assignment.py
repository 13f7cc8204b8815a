def f():
    def show():
        return msg
    msg = "first"
    r1 = show()
    msg = "second"
    return r1, show()
print(f())
def g():
    items = []
    def add(x):
        items.append(x)
        return len(items)
    add(1)
    add(2)
    return items
print(g())
