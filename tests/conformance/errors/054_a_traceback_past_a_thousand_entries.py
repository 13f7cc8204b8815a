# One exception raised again 1,100 times from two places in turn: its traceback grows by an
# entry each time; CPython prints the innermost 1,000 entries (its default traceback limit), and
# so does Baton, whose copy keeps that many (and a few more) however often it is raised.
def check(n):
    raise ValueError(n)


saved = None
try:
    check(1)
except ValueError as e:
    saved = e

for i in range(1100):
    try:
        if i % 2:
            raise saved
        else:
            raise saved
    except ValueError:
        pass
print("raised", i + 1, "times")
raise saved
