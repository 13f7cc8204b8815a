items = [3, "two", 1]
print(len(items))
print(sorted(items))
