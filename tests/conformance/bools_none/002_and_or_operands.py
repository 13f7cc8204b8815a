print(0 or 5, 3 or 5, "" or "default", None or 0)
print(0 and 5, 3 and 5, "a" and "b", [] and 1)
print(None or [] or {} or "last")
print(1 and 2 and 3, 1 and 0 and 3)
print(0 or False, False or 0)
x = None
name = x or "anon"
print(name)
print((1 or 2) + (0 and 9))
