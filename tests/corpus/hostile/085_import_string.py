# expect: B101
# string.Formatter, another formatting gadget
import string

print(string.Formatter().format("{0.__class__}", 1))
