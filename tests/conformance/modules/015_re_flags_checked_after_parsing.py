# re checks the flags against a str pattern after parsing it, as CPython's fix_flags: a malformed pattern is the error first.
import re
for p, f in [("(?s:[)", -1), ("a", 4), ("(", 4), ("a", re.A | re.U), ("(?a)a", re.U), ("(?u)a", re.A), ("[", re.A | re.U), ("a*", 1 | 4)]:
    try:
        print(re.compile(p, f).pattern)
    except (re.error, ValueError) as e:
        print(isinstance(e, re.error), e)
