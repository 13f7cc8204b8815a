# expect: B101
# fullwidth module name NFKC-normalises to os
import ｏｓ

print(ｏｓ.getcwd())
