print(sorted(["10", "9", "100"], key=int))
print(max(["10", "9", "100"], key=len))
print(list(map(str.strip, [" a ", "b "])))
print(list(map(float, ["1", "2.5"])))
print(sorted([[3], [1, 2], []], key=len))
print(sorted(["b", "a"], key=str.upper, reverse=True))
fs = [int, float, str, bool]
print([f("1") for f in fs])
