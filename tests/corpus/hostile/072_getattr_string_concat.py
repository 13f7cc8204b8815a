# expect: B202
# getattr with a dunder built at run time by concatenation
name = "_" * 2 + "class" + "_" * 2
print(getattr(1, name))
