# `global` in a function: reads and assignments reach the module's name (made by the function
# when the module never assigned it), past an enclosing function's local of the same name.
counter = 0
log = []

def bump(n=1):
    global counter
    counter += n
    log.append(counter)
    return counter

def reset():
    global counter, fresh
    counter = 0
    fresh = "made by reset"

def shadow():
    counter = 100
    def inner():
        global counter
        counter += 1
        return counter
    return inner(), counter

print(bump(), bump(5), counter, log)
reset()
print(counter, fresh)
print(shadow(), counter)
print([bump() for _ in range(3)], counter)
def reads():
    global later
    return later
try:
    reads()
except NameError as e:
    print(repr(e))
later = 7
print(reads())
global counter_at_module_level_is_allowed
def total(items):
    global grand_total
    grand_total = 0
    for item in items:
        grand_total += item
total([1, 2, 3])
print(grand_total)
