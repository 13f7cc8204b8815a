# Inline flags, `(?aiLmsux)` and `(?aiLmsux-imsx:...)`, checked as CPython's _parse_flags checks
# them: every flag letter is known in both halves ('t' is the global TEMPLATE flag, 'a', 'u' and
# 'L' cannot be turned off), each error with CPython's message and position (fuzz finding,
# seed 263: `(?-str:...)` was "unknown flag" one place early).
import re

patterns = [
    "(?-str:a)", "(?-t:a)", "(?-s:a)", "(?st:a)", "(?-sx)", "(?-s", "(?-", "(?-st",
    "(?-s1:a)", "(?s-t:a)", "(?s-it:a)", "(?-ist:a)", "(?x-st:a)", "(?-sst:a)", "(?-ss:a)",
    "(?-sa:a)", "(?i-:a)", "(?-i-:a)", "(?L:a)", "(?aL:a)", "(?au:a)", "(?ua)", "(?i-i:a)",
    "(?im-m:a)", "(?-u:a)", "(?-L:a)", "(?t)", "(?it)", "(?i", "(?i1)", "(?iq)", "(?i-q:a)",
    "(?i-1:a)", "(?-:a)", "(?-1:a)", "(?ims-x:a)b", "(?a)\\w", "(?u:a)", "(?sm)", "a(?i)",
    "(?x) (?i) a", "(?-é:a)", "(?é)", "(?i-é:a)", "(?ié)",
]
for p in patterns:
    try:
        r = re.compile(p)
        print(repr(p), "ok", int(r.flags & ~re.UNICODE))
    except re.error as e:
        print(repr(p), "error:", e)
