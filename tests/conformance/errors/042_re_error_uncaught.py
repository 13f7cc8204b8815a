# An uncaught re.error ends the plan with its module-qualified name, as CPython prints it.
import re

print(re.error)
re.compile("x(y")
