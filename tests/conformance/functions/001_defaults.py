def greet(name, greeting="Hello", punct="!"):
    return greeting + ", " + name + punct
print(greet("Ann"))
print(greet("Bob", "Hi"))
print(greet("Cy", punct="?"))
print(greet(greeting="Yo", name="Di"))
def add_item(x, acc=[]):
    acc.append(x)
    return acc
print(add_item(1), add_item(2))
def add_item2(x, acc=None):
    if acc is None:
        acc = []
    acc.append(x)
    return acc
print(add_item2(1), add_item2(2))
