try:
    [][0]
except IndexError:
    print("in handler")
    x = 1 / 0
