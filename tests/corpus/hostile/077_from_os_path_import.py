# expect: B101
# from os.path import join
from os.path import join

print(join("a", "b"))
