# Baton deviation: json.loads of an integer outside signed 64-bit.
# CPython prints 123456789012345678901234567890; Baton must raise OverflowError (caught: prints "OverflowError").
import json
try:
    print(json.loads("123456789012345678901234567890"))
except OverflowError:
    print("OverflowError")
