# The global statement: a function rebinds a module-level name (B304 is retired).
count = 0


def bump():
    global count
    count += 1


bump()
print(count)
