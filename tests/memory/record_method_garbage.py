# Garbage made while a method of a plan-library object runs: pattern.sub calls its replacement
# function for each of 40 matches, and each call makes a 10 MB str and drops it: 400 MB in one
# method call, more than the 256 MiB cap, as `pattern.findall` over a large text makes its own.
import re

pattern = re.compile(r"(\w+)")
text = " ".join("w%d" % i for i in range(40))


def replace(m):
    return str(len(m.group(1) * 5_000_000))


print(pattern.sub(replace, text)[:40])
print(len(pattern.findall(text * 20)), re.sub(r"\d", lambda m: str(len("z" * 8_000_000)), "a1b2c3d4e5f6"))
