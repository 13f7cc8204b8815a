# Found by the mutation fuzzer: a module's function is named with its module in "argument
# after *" errors (`math.fmod()`), and str()'s encoding and errors may not hold a NUL.
import json
import math

for case in [lambda: math.fmod(*1), lambda: json.loads(*None), lambda: math.sqrt(**3),
             lambda: len(*5), lambda: str(errors="\x00"), lambda: str(encoding="utf\x008"),
             lambda: str(1, "utf-8", "\x00"), lambda: str(b=1)]:
    try:
        print(repr(case()))
    except (TypeError, ValueError) as e:
        print(repr(e))
