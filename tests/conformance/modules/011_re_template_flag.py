# re's TEMPLATE flag (1, inline `t`; deprecated in 3.11) compiles no repetition, as CPython's
# (found by the mutation fuzzer, seeds 109 and 113); a bool is an int flag, True the TEMPLATE flag.
import re
for p, f in [("a*", 1), ("a*?", 1), ("(?t)ab", 0), ("(?t)x(a|b+)", 0), ("a++", 1), ("(?str", 0), ("(?t:a)", 0), ("[ab]{2}", 1), ("abc", 1)]:
    try:
        print(bool(re.compile(p, f).match("ab")))
    except re.error as e:
        print(e)
for f in [True, False]:
    for p in ["ab", "a{2,1}", "a+"]:
        try:
            print(re.split(p, "xaby", 1, f))
        except re.error as e:
            print(e)
