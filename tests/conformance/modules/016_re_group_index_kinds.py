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
