# expect: B101
# the builtins module
import builtins

builtins.eval("1")
