d = {1: "a", True: "b", 1.0: "c"}
print(d)
print(len(d))
e = {0: "zero"}
e[False] = "false"
e[0.0] = "float"
print(e)
f = {True: 1}
f[1] = 2
print(f)
print({1: 0}[1.0], {(1, 2): "t"}[(1.0, 2)])
