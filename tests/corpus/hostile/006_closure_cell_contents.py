# expect: B205, B206
# reach a captured value through __closure__[0].cell_contents
def outer():
    key = "hidden"
    def inner():
        return key
    return inner

print(outer().__closure__[0].cell_contents)
