# A Match's group argument as CPython's match_getindex reads it: any int (a bool too) is a
# group number, anything else a name, looked up by hash (fuzz finding, seed 199: m.span(True)).
import re

m = re.match("(a)(?P<n>b)?", "a")
for g in [True, False, 1.0, [1], "n", "x", 2, -1, 3, (1,), None]:
    for name, f in [("group", m.group), ("span", m.span), ("start", m.start), ("end", m.end),
                    ("getitem", lambda g: m[g])]:
        try:
            print(name, repr(g), f(g))
        except (IndexError, TypeError) as e:
            print(name, repr(g), repr(e))
print(m.group(True, "n", 0))
print(m.groups(), m.groupdict())

# A pattern without named groups looks nothing up: an unhashable argument is no group, not a
# TypeError (fuzz finding, seed 263: CPython's groupindex is NULL then).
m = re.match("(a)", "a")
for g in [[1], {}, "n", 1.5, None, True]:
    for name, f in [("group", m.group), ("span", m.span), ("start", m.start), ("end", m.end),
                    ("getitem", lambda g: m[g])]:
        try:
            print(name, repr(g), f(g))
        except (IndexError, TypeError) as e:
            print(name, repr(g), repr(e))
m = re.match("", "a")
for g in [[1], 1, "x"]:
    try:
        print(m.group(g))
    except (IndexError, TypeError) as e:
        print(repr(e))
