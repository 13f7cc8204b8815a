x = "module"
def read():
    return x
def shadow():
    x = "local"
    return x
print(read(), shadow(), x)
def outer():
    y = 1
    def inner():
        return y + 1
    return inner()
print(outer())
def counter_list():
    items = []
    for i in range(3):
        items.append(i)
    return items
print(counter_list())
