# expect: B101
# sys.modules walk
import sys

print(sys.modules["os"])
