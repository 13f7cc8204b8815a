xs = [1, 2]
assert len(xs) == 2
print("first ok")
assert len(xs) == 3
