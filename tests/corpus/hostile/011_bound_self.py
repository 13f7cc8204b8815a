# expect: B205
# print.__self__ is the builtins module
mod = print.__self__
print(mod)
