def a(n):
    return b(n + 1)
def b(n):
    return a(n + 1)
caught = 0
for attempt in range(3):
    try:
        a(0)
    except RecursionError:
        caught += 1
print("caught", caught)
def ok(n):
    return 0 if n == 0 else 1 + ok(n - 1)
print(ok(100))
