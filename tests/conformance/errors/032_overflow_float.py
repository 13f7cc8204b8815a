print(round(2.5))
print(int(float("inf")))
