d = {"a": 1, "b": 2}
for k in d:
    print(k)
    d[k * 2] = 0
