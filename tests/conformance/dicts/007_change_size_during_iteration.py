d = {"a": 1, "b": 2}
try:
    for k in d:
        d[k + "x"] = 0
except RuntimeError as e:
    print("RuntimeError:", e)
print(len(d) >= 3)
d2 = {"a": 1, "b": 2, "c": 3}
try:
    for k in d2:
        del d2[k]
except RuntimeError as e:
    print("RuntimeError:", e)
d3 = {"a": 1, "b": 2}
for k in d3:
    d3[k] = d3[k] * 10
print(d3)
for k in list(d3):
    del d3[k]
print(d3)
