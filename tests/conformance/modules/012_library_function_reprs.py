# The library's functions print as CPython's: math's are built-in functions (C), json's are
# Python functions (found by the mutation fuzzer, seed 113).
import math
print(math.fsum, math.sqrt, math.isqrt, math.prod, math.comb)
import json
print(repr(json.dumps).split(" at ")[0], repr(json.loads).split(" at ")[0], len, print)
