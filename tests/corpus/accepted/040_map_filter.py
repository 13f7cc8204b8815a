# map and filter with lambdas and unbound str methods
from baton import bash

lines = bash("ls -1 src").stdout.splitlines()
stripped = list(map(str.strip, lines))
python_files = list(filter(lambda f: f.endswith(".py"), stripped))
non_empty = list(filter(None, stripped))
upper = list(map(str.upper, python_files))
lengths = list(map(len, python_files))
pairs = list(map(lambda a, b: f"{a}:{b}", python_files, lengths))
print(upper, non_empty == stripped, pairs)
